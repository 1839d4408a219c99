import { hostname } from 'node:os';
import {
  type CommandAck,
  CommandMessageSchema,
  type HelloMessage,
  type LogPart,
  logPartLimits,
  type TelemetryMessage,
  topics,
} from '@fbox/contracts';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import { type Logger, silentLogger } from './logger.js';
import { type Clock, systemClock } from './model/clock.js';
import { FboxModel, type FboxSpec, type ModelOptions } from './model/fbox.js';
import { splitParts } from './model/miner-log.js';

export interface GatewayOptions {
  /** `mqtt://host:port`, `mqtts://…`, `ws://…`. */
  brokerUrl: string;
  /** The FBOX: its `deviceId` is the MQTT client id and the topic namespace. */
  spec: FboxSpec;
  /** The FBOX's MQTT account. */
  username?: string;
  password?: string;
  /** Telemetry period, ms (default 30 000). `fbox.config` can change it at run time. */
  intervalMs?: number;
  /** First `seq` to publish. Default: the clock's current ms, so a restarted simulator never reuses one. */
  seqStart?: number;
  /** Physics options (seed, fault rate, restart time). */
  model?: Omit<ModelOptions, 'now'>;
  clock?: Clock;
  logger?: Logger;
  /** Receive commands but never execute or acknowledge them (server time-out tests). */
  ignoreCommands?: boolean;
  /** After an executed command, report within this many ms so the change shows quickly (default 1000; 0: off). */
  reportAfterCommandMs?: number;
  /** Give up the first connection after this long, ms (default 15 000). Later drops reconnect forever. */
  connectTimeoutMs?: number;
  /** Pause between reconnection attempts, ms (default 2000). */
  reconnectPeriodMs?: number;
  /** Extra mqtt.js options (merged last). */
  mqtt?: Partial<IClientOptions>;
  /** Computer name announced in the retained hello (default: this machine's host name). */
  computerName?: string;
}

/** Announced in the hello with the computer name, so the cloud's client key records tell simulators apart. */
export const SIMULATOR_VERSION = 'fbox-simulator 0.1.0';

export type SilenceMode = 'quiet' | 'disconnect';

export interface GatewayStats {
  deviceId: string;
  connected: boolean;
  silent: SilenceMode | null;
  intervalMs: number;
  /** The next `seq` to be published. */
  nextSeq: number;
  connects: number;
  /** Connections on which the broker acknowledged the command subscription (commands can reach it). */
  subscribed: number;
  telemetrySent: number;
  /** Reports due while not connected or silent. */
  telemetrySkipped: number;
  commandsReceived: number;
  commandsOk: number;
  commandsFailed: number;
  commandsIgnored: number;
  /** Redelivered command ids, acknowledged again without acting. */
  commandsDuplicate: number;
  errors: number;
  lastTelemetryAt: number | null;
}

const ACK_CACHE_SIZE = 2000;

const isAuthError = (error: unknown): boolean => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'number' && [4, 5, 134, 135].includes(code);
};

/**
 * One FBOX gateway: owns the box's `FboxModel`, publishes its telemetry, executes the commands sent
 * to it and acknowledges them, with the FBOX's own MQTT account.
 */
export class Gateway {
  readonly deviceId: string;
  readonly model: FboxModel;
  /** When true, commands are received but neither executed nor acknowledged. */
  ignoreCommands: boolean;
  private readonly options: GatewayOptions;
  private readonly clock: Clock;
  private readonly log: Logger;
  private client: MqttClient | null = null;
  private timer: NodeJS.Timeout | null = null;
  private dueAt = 0;
  private silenceTimer: NodeJS.Timeout | null = null;
  private silentMode: SilenceMode | null = null;
  private stopped = false;
  private started = false;
  private seqNext: number;
  private interval: number;
  private readonly acks = new Map<string, CommandAck>();
  private readonly counters = {
    connects: 0,
    subscribed: 0,
    telemetrySent: 0,
    telemetrySkipped: 0,
    commandsReceived: 0,
    commandsOk: 0,
    commandsFailed: 0,
    commandsIgnored: 0,
    commandsDuplicate: 0,
    errors: 0,
  };
  private lastTelemetryAt: number | null = null;
  private publishing: Promise<unknown> = Promise.resolve();

  constructor(options: GatewayOptions) {
    this.options = options;
    this.deviceId = options.spec.deviceId;
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(this.deviceId))
      throw new Error(`invalid deviceId "${this.deviceId}": 1–64 of A–Z a–z 0–9 _ -`);
    this.clock = options.clock ?? systemClock;
    this.log = options.logger ?? silentLogger;
    this.ignoreCommands = options.ignoreCommands ?? false;
    this.interval = options.intervalMs ?? 30_000;
    this.seqNext = Math.max(0, Math.floor(options.seqStart ?? this.clock.now()));
    this.model = new FboxModel(options.spec, { ...options.model, now: this.clock.now() });
  }

  get intervalMs(): number {
    return this.interval;
  }

  /** Change the telemetry period; the next report comes at most one new period from now. */
  setIntervalMs(ms: number): void {
    if (!(ms > 0)) throw new Error('intervalMs must be positive');
    this.interval = ms;
    if (this.timer) this.schedule(Math.min(Math.max(0, this.dueAt - Date.now()), ms));
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  get silent(): SilenceMode | null {
    return this.silentMode;
  }

  /** Connect, publish `online`, subscribe to commands and start reporting. Resolves once connected. */
  async start(): Promise<void> {
    if (this.started) throw new Error(`${this.deviceId}: already started`);
    this.started = true;
    await this.connect(true);
  }

  private connect(first: boolean): Promise<void> {
    const { brokerUrl, username, password } = this.options;
    const statusTopic = topics.status(this.deviceId);
    const client = connect(brokerUrl, {
      clientId: this.deviceId,
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password } : {}),
      clean: true,
      keepalive: 30,
      protocolVersion: 4,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 2000,
      connectTimeout: Math.min(this.options.connectTimeoutMs ?? 15_000, 30_000),
      will: { topic: statusTopic, payload: Buffer.from('offline'), qos: 1, retain: true },
      ...this.options.mqtt,
    });
    this.client = client;
    client.on('message', (topic, payload) => {
      if (topic === topics.command(this.deviceId)) void this.onCommand(client, payload);
    });
    client.on('connect', () => {
      this.counters.connects++;
      this.log.info({ deviceId: this.deviceId, broker: brokerUrl }, 'gateway connected');
      void (async () => {
        try {
          await client.subscribeAsync(topics.command(this.deviceId), { qos: 1 });
          this.counters.subscribed++;
          await client.publishAsync(statusTopic, 'online', { qos: 1, retain: true });
          const hello: HelloMessage = {
            computer_name: this.options.computerName ?? hostname(),
            version: SIMULATOR_VERSION,
          };
          await client.publishAsync(topics.hello(this.deviceId), JSON.stringify(hello), {
            qos: 1,
            retain: true,
          });
          if (client === this.client && !this.silentMode) this.schedule(0);
        } catch (error) {
          this.counters.errors++;
          this.log.warn({ deviceId: this.deviceId, err: error }, 'gateway set-up after connect failed');
        }
      })();
    });
    client.on('close', () => this.log.debug({ deviceId: this.deviceId }, 'gateway connection closed'));
    client.on('error', (error) => {
      this.counters.errors++;
      this.log.warn({ deviceId: this.deviceId, err: error }, 'gateway MQTT error');
    });
    if (!first) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        cleanup();
        client.end(true);
        this.stopped = true;
        reject(error);
      };
      const timeout = setTimeout(
        () => fail(new Error(`${this.deviceId}: no connection to ${brokerUrl} within the time-out`)),
        this.options.connectTimeoutMs ?? 15_000,
      );
      const onConnect = (): void => {
        cleanup();
        resolve();
      };
      const onError = (error: Error): void => {
        if (isAuthError(error))
          fail(new Error(`${this.deviceId}: broker refused the connection: ${error.message}`));
      };
      const cleanup = (): void => {
        clearTimeout(timeout);
        client.off('connect', onConnect);
        client.off('error', onError);
      };
      client.on('connect', onConnect);
      client.on('error', onError);
    });
  }

  /** (Re)arm the report timer to fire in `delayMs`. */
  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    const delay = Math.max(0, Number.isFinite(delayMs) ? delayMs : this.interval);
    this.dueAt = Date.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.schedule(this.interval);
      void this.publishTelemetry().catch((error: unknown) => {
        this.counters.errors++;
        this.log.warn({ deviceId: this.deviceId, err: error }, 'telemetry publish failed');
      });
    }, delay);
    this.timer.unref?.();
  }

  /**
   * Build and publish one telemetry message now. Returns it, or null when not connected or silent
   * (the report is then skipped, not queued).
   */
  async publishTelemetry(): Promise<TelemetryMessage | null> {
    const client = this.client;
    if (!client?.connected || this.silentMode || this.stopped) {
      this.counters.telemetrySkipped++;
      return null;
    }
    const message = this.model.report(this.seqNext++, this.clock.now());
    const sending = client.publishAsync(topics.telemetry(this.deviceId), JSON.stringify(message), { qos: 1 });
    this.publishing = sending.catch(() => undefined);
    await sending;
    this.counters.telemetrySent++;
    this.lastTelemetryAt = message.ts;
    return message;
  }

  private async onCommand(client: MqttClient, payload: Buffer): Promise<void> {
    this.counters.commandsReceived++;
    if (this.ignoreCommands || this.silentMode) {
      this.counters.commandsIgnored++;
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(payload.toString('utf8'));
    } catch {
      this.counters.commandsFailed++;
      this.log.warn({ deviceId: this.deviceId }, 'command is not JSON: dropped');
      return;
    }
    const parsed = CommandMessageSchema.safeParse(raw);
    let ack: CommandAck;
    if (!parsed.success) {
      const id = (raw as { id?: unknown } | null)?.id;
      if (typeof id !== 'string' || id.length === 0 || id.length > 64) {
        this.counters.commandsFailed++;
        this.log.warn({ deviceId: this.deviceId }, 'command without a valid id: dropped');
        return;
      }
      const issue = parsed.error.issues[0];
      ack = {
        id,
        ok: false,
        error: `invalid command: ${issue?.path.join('.') || 'message'}: ${issue?.message ?? 'invalid'}`.slice(
          0,
          500,
        ),
      };
    } else {
      const command = parsed.data;
      const previous = this.acks.get(command.id);
      if (previous) {
        this.counters.commandsDuplicate++;
        this.log.debug(
          { deviceId: this.deviceId, id: command.id },
          'redelivered command: acknowledged again',
        );
        await this.sendAck(client, previous);
        return;
      }
      const result = this.model.execute(command, this.clock.now());
      if (result.ok && result.log !== undefined) {
        const sent = await this.sendLog(client, command.id, result.log, command.params.part_bytes);
        if (!sent) return; // not acknowledged: the cloud times the request out
      }
      ack = result.ok
        ? { id: command.id, ok: true }
        : { id: command.id, ok: false, error: result.error ?? 'failed' };
      this.log.info(
        {
          deviceId: this.deviceId,
          id: command.id,
          kind: command.kind,
          target: command.target,
          ok: ack.ok,
          error: ack.error,
        },
        'command executed',
      );
      if (result.intervalMs !== undefined) this.setIntervalMs(result.intervalMs);
      const soon = this.options.reportAfterCommandMs ?? 1000;
      if (ack.ok && soon > 0 && this.dueAt - Date.now() > soon) this.schedule(soon);
    }
    this.remember(ack);
    if (ack.ok) this.counters.commandsOk++;
    else this.counters.commandsFailed++;
    await this.sendAck(client, ack);
  }

  private remember(ack: CommandAck): void {
    this.acks.set(ack.id, ack);
    if (this.acks.size > ACK_CACHE_SIZE) this.acks.delete(this.acks.keys().next().value!);
  }

  /**
   * Sends a miner's log in parts on `fbox/<deviceId>/logs` (QoS 1, each awaited), before the ack.
   * Returns false when a part could not be sent.
   */
  private async sendLog(client: MqttClient, id: string, log: string, partBytes: unknown): Promise<boolean> {
    const size =
      typeof partBytes === 'number' && partBytes >= 1024 && partBytes <= logPartLimits.partBytes
        ? partBytes
        : logPartLimits.partBytes;
    const parts = splitParts(log, size).slice(-logPartLimits.partsMax);
    try {
      for (const [i, data] of parts.entries()) {
        const part: LogPart = { id, part: i, last: i === parts.length - 1, data };
        await client.publishAsync(topics.logs(this.deviceId), JSON.stringify(part), { qos: 1 });
      }
      return true;
    } catch (error) {
      this.counters.errors++;
      this.log.warn({ deviceId: this.deviceId, id, err: error }, 'log part publish failed');
      return false;
    }
  }

  private async sendAck(client: MqttClient, ack: CommandAck): Promise<void> {
    try {
      await client.publishAsync(topics.ack(this.deviceId), JSON.stringify(ack), { qos: 1 });
    } catch (error) {
      this.counters.errors++;
      this.log.warn({ deviceId: this.deviceId, id: ack.id, err: error }, 'ack publish failed');
    }
  }

  /**
   * Fault: the gateway goes silent. `quiet` keeps the connection but stops reporting (and drops
   * commands); `disconnect` drops the TCP connection without a DISCONNECT, so the broker publishes the
   * last will `offline`. With `durationMs` it comes back by itself; else call `resume()`.
   */
  async silence(options: { mode?: SilenceMode; durationMs?: number } = {}): Promise<void> {
    if (this.stopped) return;
    const mode = options.mode ?? 'quiet';
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
    if (this.silentMode === 'disconnect' && mode === 'quiet') {
      await this.resume();
    }
    this.silentMode = mode;
    this.log.info({ deviceId: this.deviceId, mode, durationMs: options.durationMs }, 'gateway goes silent');
    if (mode === 'disconnect' && this.client) {
      const client = this.client;
      this.client = null;
      await client.endAsync(true);
    }
    if (options.durationMs !== undefined) {
      this.silenceTimer = setTimeout(() => {
        this.silenceTimer = null;
        void this.resume();
      }, options.durationMs);
      this.silenceTimer.unref?.();
    }
  }

  /** End a silence: reconnect if needed and report right away. */
  async resume(): Promise<void> {
    if (this.stopped || !this.silentMode) return;
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.silenceTimer = null;
    const mode = this.silentMode;
    this.silentMode = null;
    this.log.info({ deviceId: this.deviceId }, 'gateway returns');
    if (mode === 'disconnect') await this.connect(false);
    else this.schedule(0);
  }

  /** Stop: publish the retained `offline` status, then disconnect cleanly (no last will). */
  async stop(): Promise<void> {
    if (this.stopped && !this.client) return;
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.silenceTimer) clearTimeout(this.silenceTimer);
    this.timer = this.silenceTimer = null;
    const client = this.client;
    this.client = null;
    if (!client) return;
    if (client.connected) {
      await Promise.race([this.publishing, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      const offline = client.publishAsync(topics.status(this.deviceId), 'offline', { qos: 1, retain: true });
      const timeout = new Promise((resolve) => setTimeout(resolve, 2000).unref());
      await Promise.race([offline.catch(() => undefined), timeout]);
      await Promise.race([client.endAsync(), new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
      if (!client.disconnected) client.end(true);
    } else {
      await client.endAsync(true);
    }
    this.log.info({ deviceId: this.deviceId }, 'gateway stopped');
  }

  stats(): GatewayStats {
    return {
      deviceId: this.deviceId,
      connected: this.connected,
      silent: this.silentMode,
      intervalMs: this.interval,
      nextSeq: this.seqNext,
      ...this.counters,
      lastTelemetryAt: this.lastTelemetryAt,
    };
  }
}
