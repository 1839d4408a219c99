import type { Generated } from 'kysely';

/** Client key records (migration 0007): every MQTT client that connected for a mine. */
export interface MqttClientsTable {
  id: Generated<number>;
  area_id: number;
  /** 'gateway' (an FBOX's gateway) or 'agent' (a site collector with the mine's Agent Key). */
  kind: string;
  /** The MQTT username: `gw-<deviceId>` for gateways, `agent:<areaId>` for agents. */
  client_key: string;
  /** '' when unknown (an external broker does not tell). */
  client_id: Generated<string>;
  fbox_id: number | null;
  ip: Generated<string>;
  computer_name: Generated<string>;
  version: Generated<string>;
  /** 1 while connected. */
  online: Generated<number>;
  first_seen_at: number;
  last_seen_at: number;
  revoked_at: Generated<number | null>;
}
