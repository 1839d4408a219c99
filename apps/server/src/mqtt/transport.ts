import type { EventEmitter } from 'node:events';

/** A message from a gateway: its topic and raw payload. */
export type MqttMessageHandler = (topic: string, payload: Buffer) => void;

/** Why the broker turned a gateway away; ingest counts these as rejected messages. */
export interface MqttRefusal {
  reason: 'bad_credentials' | 'foreign_topic';
  clientId: string;
  username?: string;
  topic?: string;
}

/**
 * The server's side of MQTT, whichever broker carries it: the embedded aedes (messages taken from
 * the broker itself) or an external one through an mqtt.js client on shared subscriptions.
 */
export interface MqttTransport {
  kind: 'embedded' | 'external';
  /** Emits `refused` (MqttRefusal) for connections and publishes the broker denied. */
  events: EventEmitter<{ refused: [MqttRefusal] }>;
  publish(topic: string, payload: string, options: { qos: 0 | 1; retain?: boolean }): Promise<void>;
  /** Telemetry, status and ack messages from gateways; one handler (ingest). */
  onMessage(handler: MqttMessageHandler): void;
  /** Stops delivering messages and closes the connection or broker; safe to call twice. */
  close(): Promise<void>;
}
