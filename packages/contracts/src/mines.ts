import { z } from 'zod';
import { IdBodySchema } from './area.js';
import { AreaIdBodySchema, AreaScopeSchema } from './devices.js';
import { endpoint } from './endpoint.js';

// ── Mines (Manage Mines) and client key records ──

/**
 * A mine as the Manage Mines screen shows it to masters and its administrators (spec §3): the
 * selector's fields plus price, comment, coordinator contact and the Agent Key site agents log in
 * with. Operators never receive this.
 */
export const MineSchema = z.object({
  id: z.number().int(),
  area_name: z.string(),
  electricity_hz: z.number().int(),
  /** Price of one kWh in the site's currency, > 0. */
  electricity_price: z.number(),
  comment: z.string(),
  contact: z.string(),
  /** 32 hex digits (128 random bits); the MQTT password of the mine's site agents. */
  agent_key: z.string(),
  created_at: z.number().int(),
});
export type Mine = z.infer<typeof MineSchema>;

/** What deleting a mine takes with it, for the confirmation (spec: "naming what will go"). */
export const MineDeletePreviewSchema = z.object({
  id: z.number().int(),
  area_name: z.string(),
  fboxes: z.number().int(),
  tanks: z.number().int(),
  miners: z.number().int(),
  /** Sub-accounts that lose access to it (their accounts stay). */
  sub_accounts: z.number().int(),
  /** Client key records of it. */
  clients: z.number().int(),
});
export type MineDeletePreview = z.infer<typeof MineDeletePreviewSchema>;

export const AgentKeySchema = z.object({ agent_key: z.string() });

/** `gateway`: an FBOX's gateway (its MQTT username is the client key); `agent`: a site collector. */
export const clientKinds = ['gateway', 'agent'] as const;
export type ClientKind = (typeof clientKinds)[number];

/**
 * One client key record (spec §3): an MQTT client that connected for the mine, per client key and
 * client id. Times are UTC epoch ms; `ip`, `client_id` and `computer_name` are '' when unknown.
 */
export const ClientRecordSchema = z.object({
  id: z.number().int(),
  kind: z.enum(clientKinds),
  client_key: z.string(),
  client_id: z.string(),
  ip: z.string(),
  computer_name: z.string(),
  version: z.string(),
  /** The FBOX of a gateway record; null for agents (or a deleted box). */
  fbox_id: z.number().int().nullable(),
  fbox_name: z.string().nullable(),
  online: z.boolean(),
  first_seen_at: z.number().int(),
  last_seen_at: z.number().int(),
  /** When an administrator revoked it; null while it is allowed. */
  revoked_at: z.number().int().nullable(),
});
export type ClientRecord = z.infer<typeof ClientRecordSchema>;

/**
 * `embedded`: the server's own broker sees every connection and can cut one off; `external`: the
 * server only sees what gateways publish (no IP or client id, no disconnect); `off`: no MQTT.
 */
export const brokerKinds = ['embedded', 'external', 'off'] as const;

export const ClientListSchema = z.object({
  broker: z.enum(brokerKinds),
  items: z.array(ClientRecordSchema),
});
export type ClientList = z.infer<typeof ClientListSchema>;

const mineCoreEndpoints = {
  mineList: endpoint({
    method: 'GET',
    path: '/index/fbox.area/mines',
    permission: 'manage',
    data: z.array(MineSchema),
  }),
  mineDeletePreview: endpoint({
    method: 'GET',
    path: '/index/fbox.area/delete_preview',
    permission: 'master',
    query: IdBodySchema,
    data: MineDeletePreviewSchema,
  }),
  mineRegenerateAgentKey: endpoint({
    method: 'POST',
    path: '/index/fbox.area/regenerate_key',
    permission: 'manage',
    body: IdBodySchema,
    data: AgentKeySchema,
    mutates: true,
    success: 'api.agentKeyRegenerated',
  }),
  mineClientList: endpoint({
    method: 'GET',
    path: '/index/fbox.area/clients',
    permission: 'manage',
    query: AreaScopeSchema,
    data: ClientListSchema,
  }),
  mineClientRevoke: endpoint({
    method: 'POST',
    path: '/index/fbox.area/revoke_client',
    permission: 'manage',
    body: AreaIdBodySchema,
    data: ClientRecordSchema,
    mutates: true,
    success: 'api.clientRevoked',
  }),
} as const;

// ── end Mines ──

/** Mines (Manage Mines), client key records, observer links (`fbox.pool`) and mining-pool subaccounts (`admin/area/pool`). */
export const mineEndpoints = {
  ...mineCoreEndpoints,
} as const;
