import type { EventEmitter } from 'node:events';

/**
 * A message from a gateway: its topic and raw payload. Resolves once the message's outcome is stored;
 * only then is it acknowledged (PUBACK). Rejects when it could not be stored: it is not acknowledged,
 * and the gateway sends it again.
 */
export type MqttMessageHandler = (topic: string, payload: Buffer) => Promise<void>;

/**
 * A site agent's registration request (`agent/<areaId>/<clientId>/register`), on a topic the broker let
 * that agent publish: the handler answers on the agent's `registered` topic. `ip` is the agent's
 * address when the broker tells it (embedded), else null. Never rejects for a bad request.
 */
export type AgentRegisterHandler = (
  areaId: number,
  clientId: string,
  payload: Buffer,
  ip: string | null,
) => Promise<void>;

/** Why the broker turned a gateway away; ingest counts these as rejected messages. */
export interface MqttRefusal {
  reason: 'bad_credentials' | 'foreign_topic' | 'foreign_client_id' | 'rate_limited' | 'oversized_packet';
  clientId: string;
  username?: string;
  topic?: string;
  ip?: string;
  /** The size an oversized packet announced. */
  bytes?: number;
}

/**
 * The server's side of MQTT, whichever broker carries it: the embedded aedes (messages taken from
 * the broker itself) or an external one through an mqtt.js client on shared subscriptions.
 */
export interface MqttTransport {
  kind: 'embedded' | 'external';
  /** Resolves when the transport receives messages (its subscriptions are granted); rejects if refused. */
  ready(): Promise<void>;
  /** Emits `refused` (MqttRefusal) for connections and publishes the broker denied. */
  events: EventEmitter<{ refused: [MqttRefusal] }>;
  publish(topic: string, payload: string, options: { qos: 0 | 1; retain?: boolean }): Promise<void>;
  /** Telemetry, status and ack messages from gateways; one handler (ingest), acknowledged after it. */
  onMessage(handler: MqttMessageHandler): void;
  /** Registration requests of site agents; one handler (agent-register.ts), acknowledged after it. */
  onAgentRegister(handler: AgentRegisterHandler): void;
  /** Stops delivering messages and closes the connection or broker; safe to call twice. */
  close(): Promise<void>;
}

/**
 * Where a transport sends gateway messages. Until ingest installs its handler, messages wait (they
 * are not acknowledged: a persistent session can deliver its backlog the moment we connect); after
 * `close`, they are refused, so nothing is acknowledged that nobody stored.
 */
export class HandlerSlot<A extends unknown[] = [topic: string, payload: Buffer]> {
  private install!: (handler: (...args: A) => Promise<void>) => void;
  private readonly installed = new Promise<(...args: A) => Promise<void>>((resolve) => {
    this.install = resolve;
  });
  private current: (...args: A) => Promise<void> = async (...args) => (await this.installed)(...args);

  set(handler: (...args: A) => Promise<void>): void {
    this.current = handler;
    this.install(handler);
  }

  close(): void {
    const closed = () => Promise.reject(new Error('MQTT transport closed'));
    this.current = closed;
    this.install(closed);
  }

  readonly handle = (...args: A): Promise<void> => this.current(...args);
}
