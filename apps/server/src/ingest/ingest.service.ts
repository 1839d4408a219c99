import {
  parseTopic,
  StatusPayloadSchema,
  type TelemetryMessage,
  TelemetryMessageSchema,
  telemetryClock,
} from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { CommandService } from '../devices/command.service.js';
import type { FboxIdentity } from '../devices/device.repository.js';
import type { DeviceService } from '../devices/device.service.js';
import type { BatchWriteModule, QueuedTelemetry, TelemetryStore } from '../devices/telemetry-writer.js';
import type { Clock } from '../lib/clock.js';
import { yieldToLoop } from '../lib/event-loop.js';
import type { LiveEvents } from '../realtime/live-events.js';
import { IngestCounters, type IngestStats } from './ingest-counters.js';
import type { StatusService } from './status.service.js';

export type { IngestStats } from './ingest-counters.js';

export interface IngestOptions {
  /** A batch holds at most this many messages… */
  maxMessages: number;
  /** …and this many miner samples. */
  maxSamples: number;
  /**
   * Miner samples waiting for the writer beyond which new telemetry waits for room: its
   * acknowledgement is held back, and the broker reads nothing more from that gateway meanwhile.
   */
  maxQueuedSamples: number;
}

/**
 * Telemetry one committed batch stored, for in-process listeners (alert evaluation, boards): each
 * message that was new (duplicates are left out), with its box and its validated values.
 */
export interface AppliedTelemetry {
  fbox: FboxIdentity;
  /** The message as stored: the box's readings, its tanks' and its miners'. */
  msg: TelemetryMessage;
  /**
   * It became the box's latest state (box, tank and miner state rows now hold its values); false for
   * a late message that only filled history.
   */
  latest: boolean;
}

export type AppliedListener = (applied: AppliedTelemetry[]) => void | Promise<void>;

/** A queued message and the acknowledgement waiting on it. */
interface Waiting extends QueuedTelemetry {
  settle: (error?: Error) => void;
}

/**
 * MQTT ingest: validates each gateway message with the contract schema, writes telemetry in
 * batches and applies status and acks. `handle` settles only once the message's outcome is
 * committed, and the transports acknowledge (PUBACK) only then, so a crash can lose nothing a
 * gateway was told we have; a write that fails is not acknowledged and the gateway sends it again.
 *
 * Batches are group commits: the writer takes everything queued, and what arrives while it writes
 * forms the next batch, so batches grow with load and nothing waits on a timer. A bad message is
 * counted and logged with its reason, changes nothing and is acknowledged (sending it again would
 * not make it good); a failed batch is retried message by message so one bad message cannot take
 * the others down with it.
 */
export class IngestService {
  private queue: Waiting[] = [];
  private queuedSamples = 0;
  private writing: Promise<void> | null = null;
  /** Telemetry waiting for room in the queue (backpressure). */
  private readonly roomWaiters: (() => void)[] = [];
  private readonly pending = new Set<Promise<unknown>>();
  private readonly counters = new IngestCounters();
  private readonly appliedListeners = new Set<AppliedListener>();
  /** When each box's last valid telemetry reached this process (queued, perhaps not yet written). */
  private readonly heard = new Map<number, number>();
  private logPartHandler: ((fbox: FboxIdentity, payload: Buffer) => Promise<void>) | null = null;

  constructor(
    private readonly deps: {
      writer: TelemetryStore;
      devices: DeviceService;
      commands: CommandService;
      status: StatusService;
      live: LiveEvents;
      clock: Clock;
      log: FastifyBaseLogger;
    },
    private readonly options: IngestOptions,
  ) {}

  /**
   * Calls `listener` after each committed batch with the telemetry it stored, in this process, so
   * nothing has to read it back from the database. Listeners run after the batch is durable and do
   * not delay its acknowledgement; one that throws is logged and the others still run. Keep them
   * quick: heavy work belongs in a queue of the listener's own. Returns the unsubscribe function.
   */
  onApplied(listener: AppliedListener): () => void {
    this.appliedListeners.add(listener);
    return () => this.appliedListeners.delete(listener);
  }

  /**
   * Adds a write to the transaction of every telemetry batch (a feature's rows derived from
   * telemetry, e.g. meter energy): committed, de-duplicated and acknowledged with the batch.
   */
  addBatchWrite(write: BatchWriteModule): void {
    this.deps.writer.addBatchWrite(write);
  }

  /**
   * Where parts of miner logs (`fbox/<deviceId>/logs`) go: the miner log export's handler, which
   * resolves once the part is stored. Without one they are refused (counted and logged).
   */
  setLogPartHandler(handler: (fbox: FboxIdentity, payload: Buffer) => Promise<void>): void {
    this.logPartHandler = handler;
  }

  /** Counters since start: of one master account's devices, or of the whole process. */
  stats(ownerId?: number): IngestStats {
    return this.counters.read(ownerId);
  }

  /**
   * When this process last received valid telemetry of a box, written or still queued. Offline
   * detection counts it as heard: a box whose report waits in our own queue is not silent.
   */
  heardAt(fboxId: number): number | undefined {
    return this.heard.get(fboxId);
  }

  /** Telemetry waiting to be written (not counting the batch being written). */
  backlog(): { messages: number; samples: number } {
    return { messages: this.queue.length, samples: this.queuedSamples };
  }

  /** Counts a message the broker refused (foreign topic, wrong credentials). */
  reject(reason: string, details: Record<string, unknown> = {}, fbox?: FboxIdentity): void {
    this.counters.add('rejected', fbox?.owner_id);
    this.deps.log.warn({ ...details, reason }, 'MQTT message rejected');
  }

  /**
   * Entry point for every gateway message. Resolves when its outcome is durable (or it was refused
   * and counted); rejects only when it could not be stored, in which case it must not be
   * acknowledged.
   */
  handle(topic: string, payload: Buffer): Promise<void> {
    const parsed = parseTopic(topic);
    if (!parsed || parsed.kind === 'cmd') return Promise.resolve();
    const work =
      parsed.kind === 'telemetry'
        ? this.onTelemetry(parsed.deviceId, payload)
        : parsed.kind === 'ack'
          ? this.deps.commands.handleAck(parsed.deviceId, payload)
          : parsed.kind === 'logs'
            ? this.onLogPart(parsed.deviceId, payload)
            : this.onStatus(parsed.deviceId, payload);
    const tracked = work.then(
      () => undefined,
      (error: unknown) => {
        this.deps.log.error({ err: error, topic }, 'MQTT message not stored; it will not be acknowledged');
        throw error;
      },
    );
    this.pending.add(tracked);
    void tracked.catch(() => {}).finally(() => this.pending.delete(tracked));
    return tracked;
  }

  private async onTelemetry(deviceId: string, payload: Buffer): Promise<void> {
    const fbox = await this.deps.devices.findByDeviceId(deviceId);
    this.counters.add('messages', fbox?.owner_id);
    if (!fbox) return this.reject('unknown device', { deviceId });
    // Wait for room before parsing: under overload what waits is the raw message, not its parsed
    // samples, and the time goes to messages that can be stored now.
    while (this.queuedSamples >= this.options.maxQueuedSamples) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch (error) {
      return this.reject('malformed JSON', { deviceId, error: (error as Error).message }, fbox);
    }
    const result = TelemetryMessageSchema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      return this.reject('schema', { deviceId, path: issue.path.join('.'), message: issue.message }, fbox);
    }
    const msg = result.data;
    const now = this.deps.clock();
    if (msg.ts > now + telemetryClock.maxAheadMs || msg.ts < now - telemetryClock.maxBehindMs) {
      return this.reject('timestamp out of range', { deviceId, seq: msg.seq, ts: msg.ts, now }, fbox);
    }
    this.heard.set(fbox.id, now);
    await new Promise<void>((resolve, reject) => {
      this.queue.push({ fbox, msg, settle: (error) => (error ? reject(error) : resolve()) });
      this.queuedSamples += msg.miners.length;
      this.writing ??= this.writeAll();
    });
  }

  private async onLogPart(deviceId: string, payload: Buffer): Promise<void> {
    const fbox = await this.deps.devices.findByDeviceId(deviceId);
    if (!fbox) return this.reject('unknown device', { deviceId });
    if (!this.logPartHandler) return this.reject('log part without a log export', { deviceId }, fbox);
    await this.logPartHandler(fbox, payload);
  }

  private async onStatus(deviceId: string, payload: Buffer): Promise<void> {
    // An empty retained payload clears the topic; it is not a status.
    if (payload.length === 0) return;
    const text = payload
      .toString('utf8')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    const status = StatusPayloadSchema.safeParse(text);
    const fbox = await this.deps.devices.findByDeviceId(deviceId);
    if (!fbox) return this.reject('unknown device', { deviceId });
    if (!status.success) return this.reject('status', { deviceId, payload: text.slice(0, 64) }, fbox);
    if (status.data === 'online') await this.deps.status.markOnline(fbox);
    else await this.deps.status.markOffline(fbox);
  }

  /** Resolves once everything queued so far is written. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /** Waits for queued telemetry, status and acks in progress (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.pending.size > 0 || this.writing) {
      await Promise.allSettled([...this.pending, this.writing]);
    }
  }

  /** Writes batches until the queue is empty; what arrives meanwhile joins the next batch. */
  private async writeAll(): Promise<void> {
    // Let the messages of the same socket read (and other gateways' at the same moment) join.
    await yieldToLoop();
    try {
      while (this.queue.length > 0) {
        const batch = this.takeBatch();
        await this.writeBatch(batch);
        for (const wake of this.roomWaiters.splice(0)) wake();
        // Let other work in between (HTTP requests, timers): on SQLite a write resolves without
        // waiting for I/O, and with gateways always sending, batch followed batch in one chain of
        // promise callbacks while API requests waited for minutes.
        await yieldToLoop();
      }
    } finally {
      this.writing = null;
    }
  }

  private takeBatch(): Waiting[] {
    let samples = 0;
    let n = 0;
    while (n < this.queue.length && n < this.options.maxMessages) {
      samples += this.queue[n]!.msg.miners.length;
      n++;
      if (samples >= this.options.maxSamples) break;
    }
    const batch = this.queue.splice(0, n);
    this.queuedSamples -= samples;
    return batch;
  }

  private async writeBatch(batch: Waiting[]): Promise<void> {
    const started = performance.now();
    try {
      await this.apply(batch);
      for (const q of batch) q.settle();
    } catch (error) {
      this.deps.log.warn(
        { err: error, messages: batch.length },
        'telemetry batch failed; retrying one by one',
      );
      this.deps.writer.reset();
      for (const q of batch) {
        try {
          await this.apply([q]);
          q.settle();
        } catch (single) {
          this.counters.add('failed', q.fbox.owner_id);
          q.settle(single instanceof Error ? single : new Error(String(single)));
        }
      }
    }
    this.counters.batch(
      batch.map((q) => q.fbox.owner_id),
      performance.now() - started,
    );
  }

  private async apply(batch: QueuedTelemetry[]): Promise<void> {
    const result = await this.deps.writer.write(batch, this.deps.clock());
    const applied = new Set(result.applied);
    for (const q of batch) {
      if (applied.has(q)) this.counters.add('samples', q.fbox.owner_id, q.msg.miners.length);
      else this.counters.add('duplicates', q.fbox.owner_id);
    }
    for (const fbox of result.cameOnline) {
      this.deps.live.publish({ type: 'status', areaId: fbox.area_id, fboxId: fbox.id, online: true });
    }
    const byArea = new Map<number, Set<number>>();
    for (const { fbox } of result.applied) {
      const set = byArea.get(fbox.area_id) ?? new Set<number>();
      set.add(fbox.id);
      byArea.set(fbox.area_id, set);
    }
    for (const [areaId, ids] of byArea)
      this.deps.live.publish({ type: 'telemetry', areaId, fboxIds: [...ids] });
    if (result.applied.length > 0) this.announceApplied(result.applied, result.current);
  }

  private announceApplied(applied: QueuedTelemetry[], current: Set<QueuedTelemetry>): void {
    if (this.appliedListeners.size === 0) return;
    const event = applied.map((q) => ({ fbox: q.fbox, msg: q.msg, latest: current.has(q) }));
    for (const listener of this.appliedListeners) {
      const failed = (error: unknown) => this.deps.log.error({ err: error }, 'telemetry listener failed');
      try {
        void Promise.resolve(listener(event)).catch(failed);
      } catch (error) {
        failed(error);
      }
    }
  }
}
