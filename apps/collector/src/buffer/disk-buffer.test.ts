import { appendFileSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../test-logger.js';
import { DiskBuffer, type DiskBufferOptions, type OutboxMessage } from './disk-buffer.js';

const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 0, 1);

/** A telemetry-like message of about `pad` bytes. */
const message = (seq: number, ts = T0 + seq * 1000, pad = 0) => ({ v: 1, seq, ts, pad: 'x'.repeat(pad) });

const open = (dir: string, options: Partial<DiskBufferOptions> = {}) => {
  const log = recordingLogger();
  const buffer = new DiskBuffer({ dir, now: () => T0 + HOUR, logger: log.logger, ...options });
  return { buffer, log };
};

/** Hands out everything waiting, acknowledging each. */
const drainAll = (buffer: DiskBuffer): number[] => {
  const seqs: number[] = [];
  for (let m = buffer.next(); m; m = buffer.next()) {
    seqs.push(JSON.parse(m.payload).seq);
    buffer.ack(m.id);
  }
  return seqs;
};

const segments = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.jsonl'));

describe('disk buffer', () => {
  it('hands messages out in the order they were appended, each as the JSON that was appended', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const { buffer } = open(dir);
    buffer.append([message(1), message(2)]);
    buffer.append([message(3)]);
    expect(buffer.stats).toMatchObject({ messages: 3, dropped: 0 });
    const first = buffer.next()!;
    expect(JSON.parse(first.payload)).toEqual(message(1));
    expect(first.ts).toBe(message(1).ts);
    buffer.ack(first.id);
    expect(drainAll(buffer)).toEqual([2, 3]);
    expect(buffer.stats).toMatchObject({ messages: 0, bytes: 0 });
    // Everything acknowledged: no segment is left behind.
    expect(segments(dir)).toEqual([]);
  });

  it('removes a message only when it is acknowledged: a failed send hands it out again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const { buffer } = open(dir);
    buffer.append([message(1), message(2), message(3)]);
    const [a, b] = [buffer.next()!, buffer.next()!];
    buffer.ack(b.id); // acknowledgements may come out of order
    expect(buffer.size).toBe(2);
    buffer.rewind();
    expect(buffer.next()!.id).toBe(a.id);
    expect(JSON.parse(buffer.next()!.payload).seq).toBe(3);
    expect(buffer.next()).toBeNull();
    buffer.ack(a.id);
    buffer.ack(a.id); // a second PUBACK of the same message changes nothing
    expect(buffer.size).toBe(1);
  });

  it('survives a restart: what was not acknowledged comes back, in order, before what is appended next', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const first = open(dir, { segmentBytes: 100 }).buffer;
    first.append([message(1)]);
    first.append([message(2), message(3)]);
    first.append([message(4)]);
    const sent = first.next()!;
    first.ack(sent.id);
    first.next(); // handed out, never acknowledged (the process died before the PUBACK)
    first.close();

    const { buffer, log } = open(dir, { segmentBytes: 100 });
    expect(buffer.stats).toMatchObject({ messages: 3 });
    expect(
      log.events.find((e) => e.msg.startsWith('outbox: telemetry buffered by an earlier run'))?.obj,
    ).toEqual({
      messages: 3,
      bytes: buffer.stats.bytes,
    });
    buffer.append([message(5)]);
    expect(drainAll(buffer)).toEqual([2, 3, 4, 5]);
    expect(segments(dir)).toEqual([]);
    expect(open(dir).buffer.size).toBe(0);
  });

  it('stays within its bound, dropping the oldest and saying how many', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const size = Buffer.byteLength(`${JSON.stringify(message(10, undefined, 1000))}\n`);
    const { buffer, log } = open(dir, { maxBytes: size * 3, segmentBytes: size * 2 });
    for (let seq = 10; seq < 20; seq++) buffer.append([message(seq, undefined, 1000)]);
    expect(buffer.stats).toMatchObject({ messages: 3, bytes: size * 3, dropped: 7 });
    const onDisk = segments(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
    // The files hold the waiting messages and at most one segment's worth already gone.
    expect(onDisk).toBeLessThanOrEqual(size * 5);
    const drops = log.events.filter((e) => e.msg === 'outbox full: oldest telemetry dropped');
    expect(drops.reduce((n, e) => n + (e.obj.dropped as number), 0)).toBe(7);
    expect(drops.at(-1)!.obj).toMatchObject({ droppedTotal: 7 });
    expect(drainAll(buffer)).toEqual([17, 18, 19]);
  });

  it('drops messages too old for the cloud (72 h window) instead of sending them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    let now = T0;
    const first = open(dir, { now: () => now }).buffer;
    first.append([message(1, T0 - 70 * HOUR)]);
    first.append([message(2, T0 - HOUR)]);
    first.append([message(3, T0)]);
    now = T0 + 2 * HOUR; // the first is 72 h old now: past the limit of 71 h
    expect(drainAll(first)).toEqual([2, 3]);
    expect(first.stats.expired).toBe(1);

    first.append([message(4, T0)]);
    first.close();
    // Restarted three days later: nothing left is worth sending.
    now = T0 + 72 * HOUR;
    const { buffer, log } = open(dir, { now: () => now });
    expect(buffer.stats).toMatchObject({ messages: 0, expired: 1 });
    expect(buffer.next()).toBeNull();
    expect(log.events.some((e) => e.msg === 'outbox: telemetry too old for the cloud dropped unsent')).toBe(
      true,
    );
  });

  it('skips a line cut short by a crash and goes on appending after it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const first = open(dir).buffer;
    first.append([message(1), message(2)]);
    first.close();
    appendFileSync(join(dir, segments(dir)[0]!), '{"v":1,"seq":3,"ts":17');

    const { buffer, log } = open(dir);
    expect(buffer.stats).toMatchObject({ messages: 2, unreadable: 1 });
    expect(log.events.some((e) => e.msg.startsWith('outbox: unreadable lines'))).toBe(true);
    buffer.append([message(4)]);
    const handed: OutboxMessage[] = [];
    for (let m = buffer.next(); m; m = buffer.next()) handed.push(m);
    expect(handed.map((m) => JSON.parse(m.payload).seq)).toEqual([1, 2, 4]);
  });
});
