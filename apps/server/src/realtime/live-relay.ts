import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ListenHandlers } from '../db/database.js';
import type { LiveEvent, LiveEvents } from './live-events.js';

/** The PostgreSQL channel live events travel on between server processes. */
export const LIVE_CHANNEL = 'fbox_live';

/** NOTIFY payloads must stay under 8000 bytes; leave room for the envelope. */
const maxPayloadBytes = 7_500;

/** How the relay reaches the other processes: NOTIFY and LISTEN of a shared PostgreSQL. */
export interface Channel {
  notify(channel: string, payload: string): Promise<void>;
  listen(channel: string, handlers: ListenHandlers): void;
}

/** What travels in one notification: the sending process and a run of its events. */
interface Message {
  o: string;
  e: LiveEvent[];
}

/**
 * Merges a run of events: telemetry events of one mine become one with the union of their FBOXes
 * (a telemetry event says "these FBOXes have new state", so merging loses nothing); the others stay,
 * in order.
 */
export const coalesce = (events: readonly LiveEvent[]): LiveEvent[] => {
  const out: LiveEvent[] = [];
  const telemetry = new Map<number, Set<number>>();
  for (const event of events) {
    if (event.type !== 'telemetry') {
      out.push(event);
      continue;
    }
    let boxes = telemetry.get(event.areaId);
    if (!boxes) {
      boxes = new Set();
      telemetry.set(event.areaId, boxes);
      out.push({ type: 'telemetry', areaId: event.areaId, fboxIds: [] });
    }
    for (const id of event.fboxIds) boxes.add(id);
  }
  for (const event of out)
    if (event.type === 'telemetry') event.fboxIds = [...(telemetry.get(event.areaId) ?? [])];
  return out;
};

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

/**
 * Cuts a run of events into payloads of at most `limit` bytes each. A telemetry event too large for
 * one payload (thousands of FBOXes) is split into several for the same mine.
 */
export const payloads = (origin: string, events: readonly LiveEvent[], limit = maxPayloadBytes): string[] => {
  const out: string[] = [];
  let current: Message = { o: origin, e: [] };
  const flush = () => {
    if (current.e.length > 0) out.push(JSON.stringify(current));
    current = { o: origin, e: [] };
  };
  const add = (event: LiveEvent) => {
    if (bytes({ ...current, e: [...current.e, event] }) > limit) flush();
    current.e.push(event);
  };
  for (const event of events) {
    if (bytes({ o: origin, e: [event] }) <= limit) {
      add(event);
      continue;
    }
    if (event.type !== 'telemetry') throw new Error(`live event of ${bytes(event)} bytes cannot be relayed`);
    // About 8 bytes an id: pieces that fit with room to spare.
    const per = Math.max(1, Math.floor((limit - 200) / 8));
    for (let i = 0; i < event.fboxIds.length; i += per)
      add({ ...event, fboxIds: event.fboxIds.slice(i, i + per) });
  }
  flush();
  return out;
};

const isLiveEvent = (value: unknown): value is LiveEvent =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { type?: unknown }).type === 'string' &&
  Number.isInteger((value as { areaId?: unknown }).areaId);

/**
 * Carries live events between server processes that share a PostgreSQL database, so a browser
 * connected to one process sees what another one stored or heard (a telemetry batch, a command's
 * ack). Events of this process are collected for `flushMs`, merged (see `coalesce`) and NOTIFYed
 * in payloads under PostgreSQL's limit; each process delivers the others' events to its own
 * listeners and skips its own, which it delivered when it published them.
 */
export class LiveRelay {
  readonly origin = randomBytes(8).toString('hex');
  private queue: LiveEvent[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> = Promise.resolve();

  constructor(
    private readonly live: LiveEvents,
    private readonly channel: Channel,
    private readonly log: FastifyBaseLogger,
    private readonly flushMs = 25,
  ) {}

  start(): void {
    this.channel.listen(LIVE_CHANNEL, {
      onNotify: (payload) => this.receive(payload),
      onListening: (listening) => {
        if (listening) this.log.info('relaying live events between processes');
        else this.log.warn('not hearing live events of other processes until the listener is back');
      },
    });
    this.live.relay = (event) => {
      this.queue.push(event);
      this.timer ??= setTimeout(() => void this.flush(), this.flushMs);
    };
  }

  /** Sends what is queued; resolves when every payload so far went out (or failed, logged). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const events = this.queue;
    this.queue = [];
    if (events.length > 0) {
      // One send after another: a process's events reach the others in the order it published them.
      this.sending = this.sending.then(async () => {
        try {
          for (const payload of payloads(this.origin, coalesce(events)))
            await this.channel.notify(LIVE_CHANNEL, payload);
        } catch (err) {
          this.log.error({ err, events: events.length }, 'could not relay live events to other processes');
        }
      });
    }
    return this.sending;
  }

  /** Stops relaying and sends what is queued. */
  async stop(): Promise<void> {
    this.live.relay = undefined;
    await this.flush();
  }

  private receive(payload: string): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      this.log.warn({ bytes: payload.length }, 'ignored a live-event notification that is not JSON');
      return;
    }
    if (message.o === this.origin || !Array.isArray(message.e)) return;
    for (const event of message.e) if (isLiveEvent(event)) this.live.deliver(event);
  }
}
