import {
  closeSync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { telemetryClock } from '@fbox/contracts';
import type { Logger } from '../logger.js';

/** Default bound of the outbox: 256 MiB of waiting messages. */
export const DEFAULT_BUFFER_BYTES = 256 * 1024 * 1024;

/**
 * Oldest message worth keeping: the cloud refuses `ts` more than 72 h behind its clock, and a
 * message kept to the last minute would be refused on its way. An hour's margin covers clock skew
 * and the time a long backlog takes to send.
 */
export const DEFAULT_MAX_AGE_MS = telemetryClock.maxBehindMs - 3_600_000;

export interface DiskBufferOptions {
  /** The outbox folder (`<state_dir>/outbox`), created when missing. */
  dir: string;
  /**
   * Bytes of waiting messages kept; beyond it the oldest are dropped. The files may hold a little
   * more: lines already sent in a segment that still has waiting ones.
   */
  maxBytes?: number;
  /** Messages whose `ts` is older than this are dropped unsent. */
  maxAgeMs?: number;
  /** A segment file is closed and a new one begun once it holds this many bytes (default 4 MiB). */
  segmentBytes?: number;
  now?: () => number;
  logger: Logger;
}

/** A message handed out for sending: `payload` is its JSON, exactly as it was appended. */
export interface OutboxMessage {
  id: number;
  ts: number;
  payload: string;
}

interface Segment {
  name: string;
  /** Bytes in the file (the next append's offset). */
  size: number;
  /** Entries of this segment still waiting; at 0 the file is deleted. */
  live: number;
  /** Open for appending (only the newest segment). */
  fd: number | null;
}

interface Entry {
  id: number;
  ts: number;
  segment: Segment;
  offset: number;
  /** The line's bytes, newline included. */
  length: number;
  done: boolean;
}

const SEGMENT = /^(\d{12})\.jsonl$/;
const CURSOR = 'sent.json';
const NEWLINE = 0x0a;

/**
 * The gateway's outbox: telemetry waiting for the cloud, on disk, in the order it was made.
 *
 * Format: segment files `<dir>/000000000001.jsonl` …, one message per line as the JSON that is
 * published, appended and never rewritten; `sent.json` names the first line not yet acknowledged,
 * so a restarted collector resumes there. A segment is deleted when none of its lines waits.
 *
 * Durability: fsync per batch: each `append` (one report: one or a few messages) is one write and
 * one fsync. It runs only while the cloud is unreachable, once per poll interval, so its cost is
 * nothing, and finer (per message) would buy nothing since a report is appended whole; without it a
 * power cut (common on a mine) would lose what the page cache held. A torn last line is skipped at
 * load. `sent.json` is written without fsync: losing it only resends messages the cloud already
 * has, and ingest drops those as duplicates.
 *
 * Synchronous on purpose: the index in memory and the files never disagree, and a write of one
 * report blocks the event loop for milliseconds, only during an outage.
 *
 * `next` hands out the oldest message not yet handed out, `ack` removes one the broker
 * acknowledged (PUBACK), `rewind` hands the unacknowledged ones out again after a failure.
 */
export class DiskBuffer {
  /** Index of the messages, oldest first; ids are consecutive along it. */
  private entries: Entry[] = [];
  /** First entry not done. */
  private head = 0;
  /** Next entry to hand out. */
  private cursor = 0;
  private nextId = 1;
  private segmentNo = 0;
  private tail: Segment | null = null;
  private readonly maxBytes: number;
  private readonly maxAgeMs: number;
  private readonly segmentBytes: number;
  private readonly now: () => number;
  private readonly log: Logger;
  readonly stats = { messages: 0, bytes: 0, dropped: 0, expired: 0, unreadable: 0 };

  constructor(private readonly options: DiskBufferOptions) {
    this.maxBytes = options.maxBytes ?? DEFAULT_BUFFER_BYTES;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
    this.segmentBytes = options.segmentBytes ?? 4 * 1024 * 1024;
    this.now = options.now ?? Date.now;
    this.log = options.logger;
    mkdirSync(options.dir, { recursive: true });
    this.load();
  }

  /** Messages waiting (handed out or not). */
  get size(): number {
    return this.stats.messages;
  }

  /**
   * Appends messages (one report) durably, in order. Makes room first by dropping the oldest
   * waiting messages when the bound would be passed. Throws when the disk refuses the write
   * (nothing of the report is kept then).
   */
  append(messages: readonly { ts: number }[]): void {
    if (messages.length === 0) return;
    const lines = messages.map((message) => Buffer.from(`${JSON.stringify(message)}\n`));
    const incoming = lines.reduce((sum, line) => sum + line.length, 0);
    this.compact();
    this.expire();
    this.makeRoom(incoming);
    const segment = this.openTail();
    const data = Buffer.concat(lines);
    try {
      let written = 0;
      while (written < data.length) written += writeSync(segment.fd!, data, written);
      fsyncSync(segment.fd!);
    } catch (error) {
      // Cut off what part of the report got written, so the next append starts on a clean line.
      try {
        ftruncateSync(segment.fd!, segment.size);
      } catch {}
      throw error;
    }
    let offset = segment.size;
    messages.forEach((message, i) => {
      this.register(segment, offset, lines[i]!.length, message.ts);
      offset += lines[i]!.length;
    });
    segment.size = offset;
    if (segment.size >= this.segmentBytes) this.closeTail();
  }

  /** The oldest message not yet handed out, or null; messages past the age limit are dropped on the way. */
  next(): OutboxMessage | null {
    this.compact();
    this.expire();
    const oldest = this.now() - this.maxAgeMs;
    while (this.cursor < this.entries.length) {
      const entry = this.entries[this.cursor++]!;
      if (entry.done) continue;
      if (entry.ts < oldest) {
        this.stats.expired++;
        this.finish(entry);
        continue;
      }
      const payload = this.read(entry);
      if (payload !== null) return { id: entry.id, ts: entry.ts, payload };
      this.stats.unreadable++;
      this.finish(entry);
    }
    return null;
  }

  /** The broker acknowledged this message: it is removed (an unknown or finished id is ignored). */
  ack(id: number): void {
    const entry = this.entries[id - (this.entries[0]?.id ?? id)];
    if (entry?.id === id && !entry.done) this.finish(entry);
  }

  /** Every message not acknowledged is handed out again, oldest first (after a failed publish). */
  rewind(): void {
    this.cursor = this.head;
  }

  /** Closes the open segment file; a later append opens a new one. */
  close(): void {
    this.closeTail();
  }

  private register(segment: Segment, offset: number, length: number, ts: number): void {
    this.entries.push({ id: this.nextId++, ts, segment, offset, length, done: false });
    segment.live++;
    this.stats.messages++;
    this.stats.bytes += length;
  }

  /** Removes one message from the queue; deletes its segment once nothing of it waits. */
  private finish(entry: Entry): void {
    entry.done = true;
    this.stats.messages--;
    this.stats.bytes -= entry.length;
    const { segment } = entry;
    if (--segment.live === 0) {
      if (segment === this.tail) this.closeTail();
      rmSync(join(this.options.dir, segment.name), { force: true });
    }
    this.advance();
  }

  /** Moves the head past finished messages and records it in `sent.json`. */
  private advance(): void {
    const before = this.head;
    while (this.head < this.entries.length && this.entries[this.head]!.done) this.head++;
    if (this.head === before) return;
    if (this.cursor < this.head) this.cursor = this.head;
    const first = this.entries[this.head];
    const cursorFile = join(this.options.dir, CURSOR);
    if (first)
      writeFileSync(cursorFile, JSON.stringify({ segment: first.segment.name, offset: first.offset }));
    else rmSync(cursorFile, { force: true });
  }

  /** Forgets finished entries before the head once they are most of the index (called before loops over it). */
  private compact(): void {
    if (this.head < 1024 || this.head * 2 < this.entries.length) return;
    this.entries = this.entries.slice(this.head);
    this.cursor -= this.head;
    this.head = 0;
  }

  /** Drops waiting messages past the age limit from the head. */
  private expire(): void {
    const oldest = this.now() - this.maxAgeMs;
    let expired = 0;
    // `finish` moves the head past what it removes, so the head is always the oldest waiting message.
    for (let entry = this.entries[this.head]; entry && entry.ts < oldest; entry = this.entries[this.head]) {
      this.finish(entry);
      expired++;
    }
    if (expired === 0) return;
    this.stats.expired += expired;
    this.log.warn(
      { expired, maxAgeH: Math.round(this.maxAgeMs / 3_600_000) },
      'outbox: telemetry too old for the cloud dropped unsent',
    );
  }

  /** Drops the oldest waiting messages until `incoming` more bytes fit the bound. */
  private makeRoom(incoming: number): void {
    let dropped = 0;
    for (let entry = this.entries[this.head]; entry && this.stats.bytes + incoming > this.maxBytes; ) {
      this.finish(entry);
      dropped++;
      entry = this.entries[this.head];
    }
    if (dropped === 0) return;
    this.stats.dropped += dropped;
    this.log.warn(
      { dropped, droppedTotal: this.stats.dropped, maxBytes: this.maxBytes },
      'outbox full: oldest telemetry dropped',
    );
  }

  private openTail(): Segment {
    if (this.tail) return this.tail;
    const name = `${String(++this.segmentNo).padStart(12, '0')}.jsonl`;
    const fd = openSync(join(this.options.dir, name), 'a');
    // The new file's name must survive a power cut too: fsync the folder (not possible on Windows).
    try {
      const dirFd = openSync(this.options.dir, 'r');
      try {
        fsyncSync(dirFd);
      } finally {
        closeSync(dirFd);
      }
    } catch {}
    this.tail = { name, size: 0, live: 0, fd };
    return this.tail;
  }

  private closeTail(): void {
    const tail = this.tail;
    this.tail = null;
    if (tail?.fd != null) closeSync(tail.fd);
    if (tail) tail.fd = null;
  }

  private read(entry: Entry): string | null {
    const buffer = Buffer.alloc(entry.length - 1);
    let fd: number | null = null;
    try {
      fd = openSync(join(this.options.dir, entry.segment.name), 'r');
      const got = readSync(fd, buffer, 0, buffer.length, entry.offset);
      return got === buffer.length ? buffer.toString('utf8') : null;
    } catch (error) {
      this.log.error({ segment: entry.segment.name, err: error }, 'outbox: message unreadable: skipped');
      return null;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /** Reads what an earlier run left: every line after `sent.json`'s position, in order. */
  private load(): void {
    const { dir } = this.options;
    const names = readdirSync(dir)
      .filter((name) => SEGMENT.test(name))
      .sort();
    let cursor: { segment?: unknown; offset?: unknown } = {};
    try {
      cursor = JSON.parse(readFileSync(join(dir, CURSOR), 'utf8'));
    } catch {}
    const from = typeof cursor.segment === 'string' ? cursor.segment : '';
    const fromOffset = typeof cursor.offset === 'number' ? cursor.offset : 0;
    let torn = 0;
    for (const name of names) {
      this.segmentNo = Math.max(this.segmentNo, Number(SEGMENT.exec(name)![1]));
      const segment: Segment = { name, size: 0, live: 0, fd: null };
      if (name >= from) {
        const data = readFileSync(join(dir, name));
        segment.size = data.length;
        let start = name === from ? fromOffset : 0;
        // A cursor in the middle of a line (a file changed by hand) starts at the next whole line.
        if (start > 0 && data[start - 1] !== NEWLINE) start = data.indexOf(NEWLINE, start) + 1 || data.length;
        for (let end = data.indexOf(NEWLINE, start); end !== -1; end = data.indexOf(NEWLINE, start)) {
          const ts = tsOf(data.toString('utf8', start, end));
          if (ts === null) torn++;
          else this.register(segment, start, end + 1 - start, ts);
          start = end + 1;
        }
        if (start < data.length) torn++;
      }
      if (segment.live === 0) rmSync(join(dir, name), { force: true });
    }
    if (torn > 0) {
      this.stats.unreadable += torn;
      this.log.warn({ lines: torn }, 'outbox: unreadable lines (a write cut short) skipped');
    }
    this.expire();
    this.makeRoom(0);
    if (this.stats.messages > 0)
      this.log.info(
        { messages: this.stats.messages, bytes: this.stats.bytes },
        'outbox: telemetry buffered by an earlier run, to send',
      );
  }
}

/** A line's `ts`, or null when it is not a whole message. */
const tsOf = (line: string): number | null => {
  try {
    const ts = (JSON.parse(line) as { ts?: unknown } | null)?.ts;
    return typeof ts === 'number' && Number.isFinite(ts) ? ts : null;
  } catch {
    return null;
  }
};
