import type { Logger } from '../logger.js';
import type { DiskBuffer } from './disk-buffer.js';

/** Publishes one payload and resolves at its PUBACK; null while the cloud is unreachable. */
export type Publisher = ((payload: string) => Promise<unknown>) | null;

export interface BacklogOptions {
  /** The current way to the cloud (asked again before each publish). */
  publisher: () => Publisher;
  /** Messages published and not yet acknowledged at a time (default 4). */
  maxInFlight?: number;
  /** One buffered message was acknowledged. */
  onSent?: () => void;
  logger: Logger;
}

/**
 * The telemetry that waits for the cloud: kept in a `DiskBuffer` while the cloud is unreachable (or
 * while older messages still wait, so the order holds), and drained once it is back, oldest first,
 * at most `maxInFlight` unacknowledged at a time: each PUBACK removes its message and lets the next
 * one go, so the cloud's acknowledgements pace the backlog. Never awaited by the poll cycle.
 */
export class Backlog {
  private inFlight = 0;
  private readonly maxInFlight: number;
  private readonly log: Logger;

  constructor(
    private readonly buffer: DiskBuffer,
    private readonly options: BacklogOptions,
  ) {
    this.maxInFlight = options.maxInFlight ?? 4;
    this.log = options.logger;
  }

  /** Messages are waiting or on their way: a new one must queue behind them. */
  get pending(): boolean {
    return this.buffer.size > 0 || this.inFlight > 0;
  }

  get stats() {
    const { messages, bytes, dropped, expired } = this.buffer.stats;
    return { buffered: messages, bufferedBytes: bytes, dropped, expired };
  }

  /** Appends one report's messages (durably) and drains what it can. False when the disk refused them. */
  hold(messages: readonly { seq: number; ts: number }[], reason: string): boolean {
    const first = messages[0];
    if (!first) return true;
    const wasEmpty = !this.pending;
    try {
      this.buffer.append(messages);
    } catch (error) {
      this.log.error({ err: error, seq: first.seq, ts: first.ts }, 'report not buffered: lost');
      return false;
    }
    if (wasEmpty) this.log.warn({ reason }, 'buffering reports until the cloud takes them again');
    this.log.debug({ seq: first.seq, ts: first.ts, messages: messages.length, reason }, 'report buffered');
    this.drain();
    return true;
  }

  /**
   * Publishes buffered messages while there is room in flight. A message in flight when the
   * connection drops is resent by the MQTT client on reconnect, and its promise resolves then; one
   * whose publish fails (the client stopped) is handed out again later, from the buffer.
   */
  drain(): void {
    while (this.inFlight < this.maxInFlight) {
      const publish = this.options.publisher();
      if (!publish) return;
      const message = this.buffer.next();
      if (!message) return;
      this.inFlight++;
      publish(message.payload)
        .then(
          () => {
            this.buffer.ack(message.id);
            this.options.onSent?.();
          },
          (error: unknown) => {
            this.buffer.rewind();
            this.log.debug({ err: error }, 'buffered message not sent: kept for later');
          },
        )
        .finally(() => {
          this.inFlight--;
          if (!this.pending) this.log.info({}, 'buffered reports sent: reporting live again');
          this.drain();
        });
    }
  }

  close(): void {
    this.buffer.close();
  }
}
