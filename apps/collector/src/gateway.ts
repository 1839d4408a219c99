import { hostname } from 'node:os';
import {
  type CommandAck,
  type CommandMessage,
  CommandMessageSchema,
  type HelloMessage,
  type MinerTelemetry,
  type TelemetryMessage,
  TelemetryMessageSchema,
  topics,
} from '@fbox/contracts';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { Backlog, type Publisher } from './buffer/backlog.js';
import { DiskBuffer } from './buffer/disk-buffer.js';
import type { Logger } from './logger.js';

export const COLLECTOR_VERSION = 'fbox-collector 0.1.0';

/** Miners per telemetry message (the schema's limit); a larger site is split over several messages. */
export const MINERS_PER_MESSAGE = 5000;

export interface GatewayOptions {
  brokerUrl: string;
  deviceId: string;
  username?: string;
  password?: string;
  computerName?: string;
  /** Epoch ms for `ts` (and the first `seq`); tests pass the server's clock. */
  now: () => number;
  logger: Logger;
  /** Executes a command; its result becomes the ack. */
  execute: (command: CommandMessage) => Promise<CommandAck>;
  /** First pause before reconnecting, ms (default 1000); doubled after each failed attempt up to `maxReconnectPeriodMs`. */
  reconnectPeriodMs?: number;
  /** Longest pause between reconnection attempts, ms (default 60 000). */
  maxReconnectPeriodMs?: number;
  mqtt?: Partial<IClientOptions>;
  /**
   * Where reports wait while the cloud is unreachable (docs/collector.md, "Buffering"): the outbox
   * folder, its bound in bytes, the oldest `ts` kept. Without it such reports are skipped.
   */
  buffer?: { dir: string; maxBytes?: number; maxAgeMs?: number };
  /** Buffered messages published at once while the backlog drains (default 4): the PUBACKs pace the rest. */
  maxInFlight?: number;
  /** How long a report waits for its PUBACKs before it is buffered instead (default 20 000 ms). */
  publishTimeoutMs?: number;
}

/** Readings of an FBOX the collector does not have: no box hardware, so every number is "no reading". */
const noBox: TelemetryMessage['box'] = {
  temperature: -999,
  humidity: -999,
  voltage: [-999, -999, -999],
  power_kw: -999,
  meters: [],
};

/**
 * A report as telemetry messages: at most 5,000 miners each, consecutive `seq` from `seq`, one `ts`
 * (the sample time), the box with no readings and no tanks. No miners: one message, so the box
 * stays online.
 */
export const telemetryMessages = (miners: MinerTelemetry[], seq: number, ts: number): TelemetryMessage[] => {
  const messages: TelemetryMessage[] = [];
  for (let i = 0; i === 0 || i < miners.length; i += MINERS_PER_MESSAGE)
    messages.push({
      v: 1,
      seq: seq + messages.length,
      ts,
      box: noBox,
      tanks: [],
      miners: miners.slice(i, i + MINERS_PER_MESSAGE),
    });
  return messages;
};

const ACKS_REMEMBERED = 2000;

/**
 * The collector as its FBOX's gateway (docs/mqtt.md): client id = device id, last will `offline`
 * (QoS 1, retained), `online` and the hello retained after each connect, telemetry QoS 1, commands
 * on `fbox/<id>/cmd`, each id executed once and acknowledged on `cmd/ack`.
 */
export class Gateway {
  private client: MqttClient | null = null;
  private seq: number;
  private readonly acks = new Map<string, Promise<CommandAck>>();
  private readonly backlog: Backlog | null;
  /** Reports published directly and not yet acknowledged. */
  private sending = 0;
  private readonly counters = {
    connects: 0,
    reconnects: 0,
    /** Telemetry messages the cloud acknowledged (directly or from the buffer). */
    messagesSent: 0,
    /** Reports lost while the cloud was unreachable (only without a buffer). */
    reportsSkipped: 0,
    commands: 0,
    duplicates: 0,
  };

  constructor(private readonly options: GatewayOptions) {
    this.seq = Math.max(0, Math.floor(options.now()));
    const { buffer, logger } = options;
    this.backlog = buffer
      ? new Backlog(new DiskBuffer({ ...buffer, now: options.now, logger }), {
          publisher: () => this.publisher(),
          ...(options.maxInFlight !== undefined && { maxInFlight: options.maxInFlight }),
          onSent: () => this.counters.messagesSent++,
          logger,
        })
      : null;
  }

  /**
   * Counters, and the buffer: `buffered` messages (`bufferedBytes`) waiting, `dropped` (buffer
   * full) and `expired` (too old for the cloud) since start.
   */
  get stats() {
    const buffer = this.backlog?.stats ?? { buffered: 0, bufferedBytes: 0, dropped: 0, expired: 0 };
    return { ...this.counters, ...buffer };
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Connects; resolves at the first connection (later drops reconnect by themselves). */
  start(timeoutMs = 15_000): Promise<void> {
    const { brokerUrl, deviceId, username, password } = this.options;
    const log = this.options.logger;
    const client = connect(brokerUrl, {
      clientId: deviceId,
      ...(username !== undefined && { username }),
      ...(password !== undefined && { password }),
      clean: true,
      keepalive: 30,
      protocolVersion: 4,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 1000,
      connectTimeout: 15_000,
      will: { topic: topics.status(deviceId), payload: Buffer.from('offline'), qos: 1, retain: true },
      ...this.options.mqtt,
    });
    this.client = client;
    client.on('message', (topic, payload) => {
      if (topic === topics.command(deviceId)) void this.onCommand(client, payload);
    });
    client.on('error', (error) => log.warn({ err: error }, 'cloud MQTT error'));
    // Back-off: each attempt doubles the pause before the next, up to the maximum; a connection resets it.
    const basePeriod = this.options.reconnectPeriodMs ?? 1000;
    const maxPeriod = Math.max(basePeriod, this.options.maxReconnectPeriodMs ?? 60_000);
    client.on('reconnect', () => {
      this.counters.reconnects++;
      client.options.reconnectPeriod = Math.min(
        maxPeriod,
        (client.options.reconnectPeriod ?? basePeriod) * 2,
      );
    });
    client.on('connect', () => {
      client.options.reconnectPeriod = basePeriod;
    });
    client.on('close', () => log.debug({}, 'cloud connection closed'));
    const ready = new Promise<void>((resolve, reject) => {
      // Only the first connection decides `start`: later drops and refusals are retried with back-off.
      let settled = false;
      const timer = setTimeout(() => {
        settled = true;
        client.end(true);
        reject(new Error(`no connection to ${brokerUrl} within ${timeoutMs} ms`));
      }, timeoutMs);
      client.on('connect', () => {
        this.counters.connects++;
        log.info({ broker: brokerUrl, deviceId }, 'connected to the cloud');
        void (async () => {
          try {
            await client.subscribeAsync(topics.command(deviceId), { qos: 1 });
            await client.publishAsync(topics.status(deviceId), 'online', { qos: 1, retain: true });
            const hello: HelloMessage = {
              computer_name: (this.options.computerName ?? hostname()).slice(0, 128),
              version: COLLECTOR_VERSION,
            };
            await client.publishAsync(topics.hello(deviceId), JSON.stringify(hello), {
              qos: 1,
              retain: true,
            });
            clearTimeout(timer);
            settled = true;
            resolve();
          } catch (error) {
            log.warn({ err: error }, 'set-up after connecting failed');
          }
          // What waited while the cloud was away goes now, oldest first.
          this.backlog?.drain();
        })();
      });
      client.on('error', (error) => {
        const code = (error as { code?: unknown }).code;
        if (!settled && typeof code === 'number' && [4, 5, 134, 135].includes(code)) {
          settled = true;
          clearTimeout(timer);
          client.end(true);
          reject(new Error(`the cloud refused the connection: ${error.message}`));
        }
      });
    });
    return ready;
  }

  /**
   * The miners' report: one message per 5,000 miners, each with its own `seq`, all with the same
   * `ts` (the sample time), both fixed now. Published at once when the cloud is reachable and no
   * older message waits; else appended to the buffer, which drains after the next connect, so
   * messages reach the cloud in the order they were made. Returns the messages the cloud
   * acknowledged now (0 when the report was buffered).
   */
  async report(miners: MinerTelemetry[]): Promise<number> {
    const messages = this.validMessages(miners);
    if (messages.length === 0) return 0;
    const client = this.client;
    // With a buffer, a report never overtakes older ones still waiting or on their way.
    const behind = this.backlog !== null && (this.backlog.pending || this.sending > 0);
    if (!client?.connected || behind) {
      this.hold(messages, client?.connected ? 'older reports still waiting' : 'cloud unreachable');
      return 0;
    }
    this.sending++;
    try {
      const acked = await this.publishNow(client, messages);
      const rest = messages.filter((_, i) => !acked[i]);
      if (rest.length > 0) this.hold(rest, 'no acknowledgement from the cloud');
      else
        this.log.debug(
          { seq: messages[0]!.seq, ts: messages[0]!.ts, messages: messages.length },
          'report sent',
        );
      return messages.length - rest.length;
    } finally {
      this.sending--;
    }
  }

  private get log(): Logger {
    return this.options.logger;
  }

  /** The way to the cloud for buffered messages: null while it is unreachable or the gateway stopped. */
  private publisher(): Publisher {
    const client = this.client;
    if (!client?.connected) return null;
    const topic = topics.telemetry(this.options.deviceId);
    return (payload) => client.publishAsync(topic, payload, { qos: 1 });
  }

  /** The report's messages with their `seq` and `ts`; one that does not match the protocol is left out, logged. */
  private validMessages(miners: MinerTelemetry[]): TelemetryMessage[] {
    const messages = telemetryMessages(miners, this.seq, Math.floor(this.options.now()));
    this.seq += messages.length;
    return messages.filter((message) => {
      const checked = TelemetryMessageSchema.safeParse(message);
      if (checked.success) return true;
      const issue = checked.error.issues[0];
      this.log.error(
        { path: issue?.path.join('.'), reason: issue?.message },
        'report does not match the protocol: not sent',
      );
      return false;
    });
  }

  /**
   * Publishes the messages and waits for their PUBACKs until they all came, the connection closed,
   * or `publishTimeoutMs` passed; returns which were acknowledged. The MQTT client keeps and resends
   * the others by itself, but only while this process lives: they are buffered too (a copy that
   * arrives twice is applied once, ingest de-duplicates by seq and ts).
   */
  private async publishNow(client: MqttClient, messages: TelemetryMessage[]): Promise<boolean[]> {
    const topic = topics.telemetry(this.options.deviceId);
    const acked = messages.map(() => false);
    let waiting = true;
    const all = Promise.all(
      messages.map((message, i) =>
        client.publishAsync(topic, JSON.stringify(message), { qos: 1 }).then(
          () => {
            if (!waiting) return;
            acked[i] = true;
            this.counters.messagesSent++;
          },
          () => {},
        ),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    let onClose = () => {};
    const cut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, this.options.publishTimeoutMs ?? 20_000);
      onClose = resolve;
      client.once('close', onClose);
    });
    await Promise.race([all, cut]);
    waiting = false;
    clearTimeout(timer);
    client.removeListener('close', onClose);
    return acked;
  }

  /** Keeps messages for later in the buffer, or skips them without one. */
  private hold(messages: TelemetryMessage[], reason: string): void {
    if (this.backlog) {
      this.backlog.hold(messages, reason);
      return;
    }
    this.counters.reportsSkipped++;
    this.log.warn({ miners: messages.reduce((n, m) => n + m.miners.length, 0), reason }, 'report skipped');
  }

  private async onCommand(client: MqttClient, payload: Buffer): Promise<void> {
    const log = this.options.logger;
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString('utf8'));
    } catch {
      log.warn({}, 'command is not JSON: dropped');
      return;
    }
    const id = (raw as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 64) {
      log.warn({}, 'command without a valid id: dropped');
      return;
    }
    let pending = this.acks.get(id);
    if (pending) {
      this.counters.duplicates++;
      log.debug({ id }, 'redelivered command: acknowledged again, not executed');
    } else {
      this.counters.commands++;
      const parsed = CommandMessageSchema.safeParse(raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const error = `invalid command: ${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`;
        pending = Promise.resolve({ id, ok: false, error: error.slice(0, 500) });
      } else {
        const command = parsed.data;
        pending = this.options
          .execute(command)
          .catch((error: unknown): CommandAck => ({ id, ok: false, error: String((error as Error).message) }))
          .then((ack) => {
            log.info(
              { id, kind: command.kind, target: command.target, ok: ack.ok, error: ack.error },
              'command executed',
            );
            return { ...ack, ...(ack.error !== undefined && { error: ack.error.slice(0, 500) }) };
          });
      }
      this.acks.set(id, pending);
      if (this.acks.size > ACKS_REMEMBERED) this.acks.delete(this.acks.keys().next().value!);
    }
    const ack = await pending;
    try {
      await client.publishAsync(topics.ack(this.options.deviceId), JSON.stringify(ack), { qos: 1 });
    } catch (error) {
      log.warn({ id, err: error }, 'ack not published');
    }
  }

  /** Publishes `offline` (retained) and disconnects cleanly. */
  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (!client) {
      this.backlog?.close();
      return;
    }
    const within = <T>(promise: Promise<T>) =>
      Promise.race([
        promise.catch(() => undefined),
        new Promise((resolve) => setTimeout(resolve, 2000).unref()),
      ]);
    if (client.connected) {
      await within(
        client.publishAsync(topics.status(this.options.deviceId), 'offline', { qos: 1, retain: true }),
      );
      await within(client.endAsync());
    }
    if (!client.disconnected) client.end(true);
    this.backlog?.close();
  }
}
