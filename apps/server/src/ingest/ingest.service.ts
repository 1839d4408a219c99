import { parseTopic, StatusPayloadSchema, TelemetryMessageSchema } from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { CommandService } from '../devices/command.service.js';
import type { DeviceService } from '../devices/device.service.js';
import type { Clock } from '../lib/clock.js';
import type { LiveEvents } from '../realtime/live-events.js';
import type { StatusService } from './status.service.js';
import type { QueuedTelemetry, TelemetryWriter } from './telemetry-writer.js';

/** Ingest counters since start (served by the API as the ingest health figures). */
export interface IngestStats {
  /** Telemetry messages received. */
  messages: number;
  /** Miner samples written. */
  samples: number;
  /** Messages refused: malformed, invalid, unknown device, foreign topic, bad credentials. */
  rejected: number;
  /** Telemetry messages whose seq was already applied. */
  duplicates: number;
  batches: number;
  lastBatchMs: number;
  avgBatchMs: number;
}

export interface IngestOptions {
  /** Flush when this many messages are queued… */
  maxMessages: number;
  /** …or this many miner samples… */
  maxSamples: number;
  /** …or this long after the first queued message. */
  maxDelayMs: number;
}

/**
 * MQTT ingest: validates each gateway message with the contract schema, queues telemetry and
 * writes it in batches (size or time), applies status and acks. A bad message is counted and
 * logged with its reason and changes nothing; a failed batch is retried message by message so one
 * bad message cannot take the others down with it.
 */
export class IngestService {
  private queue: { deviceId: string; msg: QueuedTelemetry['msg'] }[] = [];
  private queuedSamples = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private readonly pending = new Set<Promise<unknown>>();
  private totalBatchMs = 0;
  private readonly counters: IngestStats = {
    messages: 0,
    samples: 0,
    rejected: 0,
    duplicates: 0,
    batches: 0,
    lastBatchMs: 0,
    avgBatchMs: 0,
  };

  constructor(
    private readonly deps: {
      writer: TelemetryWriter;
      devices: DeviceService;
      commands: CommandService;
      status: StatusService;
      live: LiveEvents;
      clock: Clock;
      log: FastifyBaseLogger;
    },
    private readonly options: IngestOptions = { maxMessages: 500, maxSamples: 20_000, maxDelayMs: 250 },
  ) {}

  stats(): IngestStats {
    return { ...this.counters };
  }

  /** Counts a message the broker refused (foreign topic, wrong credentials). */
  reject(reason: string, details: Record<string, unknown> = {}): void {
    this.counters.rejected++;
    this.deps.log.warn({ ...details, reason }, 'MQTT message rejected');
  }

  /** Entry point for every message from the broker. Never throws. */
  handle(topic: string, payload: Buffer): void {
    const parsed = parseTopic(topic);
    if (!parsed || parsed.kind === 'cmd') return;
    if (parsed.kind === 'telemetry') this.onTelemetry(parsed.deviceId, payload);
    else if (parsed.kind === 'ack') this.track(this.deps.commands.handleAck(parsed.deviceId, payload));
    else this.track(this.onStatus(parsed.deviceId, payload));
  }

  private onTelemetry(deviceId: string, payload: Buffer): void {
    this.counters.messages++;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch (error) {
      this.reject('malformed JSON', { deviceId, error: (error as Error).message });
      return;
    }
    const result = TelemetryMessageSchema.safeParse(json);
    if (!result.success) {
      const issue = result.error.issues[0]!;
      this.reject('schema', { deviceId, path: issue.path.join('.'), message: issue.message });
      return;
    }
    this.queue.push({ deviceId, msg: result.data });
    this.queuedSamples += result.data.miners.length;
    if (this.queue.length >= this.options.maxMessages || this.queuedSamples >= this.options.maxSamples) {
      void this.flush();
    } else {
      this.timer ??= setTimeout(() => void this.flush(), this.options.maxDelayMs);
    }
  }

  private async onStatus(deviceId: string, payload: Buffer): Promise<void> {
    // An empty retained payload clears the topic; it is not a status.
    if (payload.length === 0) return;
    const text = payload
      .toString('utf8')
      .trim()
      .replace(/^"(.*)"$/, '$1');
    const status = StatusPayloadSchema.safeParse(text);
    if (!status.success) return this.reject('status', { deviceId, payload: text.slice(0, 64) });
    const fbox = await this.deps.devices.findByDeviceId(deviceId);
    if (!fbox) return this.reject('unknown device', { deviceId });
    if (status.data === 'online') await this.deps.status.markOnline(fbox);
    else await this.deps.status.markOffline(fbox);
  }

  /** Writes everything queued so far; resolves when it and earlier flushes are done. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    this.queuedSamples = 0;
    this.flushing = this.flushing.then(() => (batch.length > 0 ? this.writeBatch(batch) : undefined));
    return this.flushing;
  }

  /** Waits for queued telemetry, status and acks in progress (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    await this.flush();
  }

  private track(promise: Promise<unknown>): void {
    const tracked = promise
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'MQTT message handling failed'))
      .finally(() => this.pending.delete(tracked));
    this.pending.add(tracked);
  }

  private async writeBatch(batch: { deviceId: string; msg: QueuedTelemetry['msg'] }[]): Promise<void> {
    const started = performance.now();
    const resolved: QueuedTelemetry[] = [];
    for (const { deviceId, msg } of batch) {
      const fbox = await this.deps.devices.findByDeviceId(deviceId);
      if (fbox) resolved.push({ fbox, msg });
      else this.reject('unknown device', { deviceId });
    }
    if (resolved.length === 0) return;
    try {
      await this.apply(resolved);
    } catch (error) {
      this.deps.log.warn(
        { err: error, messages: resolved.length },
        'telemetry batch failed; retrying one by one',
      );
      this.deps.writer.reset();
      for (const q of resolved) {
        try {
          await this.apply([q]);
        } catch (single) {
          this.reject('write failed', { deviceId: q.fbox.device_id, seq: q.msg.seq, error: String(single) });
        }
      }
    }
    const ms = performance.now() - started;
    this.counters.batches++;
    this.counters.lastBatchMs = Math.round(ms * 10) / 10;
    this.totalBatchMs += ms;
    this.counters.avgBatchMs = Math.round((this.totalBatchMs / this.counters.batches) * 10) / 10;
  }

  private async apply(batch: QueuedTelemetry[]): Promise<void> {
    const result = await this.deps.writer.write(batch, this.deps.clock());
    this.counters.duplicates += result.duplicates;
    this.counters.samples += result.samples;
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
  }
}
