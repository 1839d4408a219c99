import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logger.js';
import { Backlog, type Publisher } from './backlog.js';
import { DiskBuffer } from './disk-buffer.js';

/** A cloud whose PUBACKs the test releases by hand. */
const fakeCloud = () => {
  const published: { seq: number; ack: () => void; fail: () => void }[] = [];
  let reachable = false;
  const publisher = (): Publisher =>
    reachable
      ? (payload) =>
          new Promise<void>((resolve, reject) => {
            published.push({
              seq: JSON.parse(payload).seq,
              ack: resolve,
              fail: () => reject(new Error('closed')),
            });
          })
      : null;
  return {
    published,
    publisher,
    setReachable: (value: boolean) => {
      reachable = value;
    },
  };
};

const settle = () => new Promise((resolve) => setImmediate(resolve));
const report = (seq: number) => [{ seq, ts: Date.now() - 1000 + seq }];

describe('backlog', () => {
  it('keeps reports while the cloud is away, then sends them oldest first, a few in flight at a time', async () => {
    const cloud = fakeCloud();
    const buffer = new DiskBuffer({ dir: mkdtempSync(join(tmpdir(), 'outbox-')), logger: silentLogger });
    let sent = 0;
    const backlog = new Backlog(buffer, {
      publisher: cloud.publisher,
      maxInFlight: 2,
      onSent: () => sent++,
      logger: silentLogger,
    });
    for (let seq = 1; seq <= 5; seq++) backlog.hold(report(seq), 'cloud unreachable');
    expect(cloud.published).toEqual([]);
    expect(backlog.stats).toMatchObject({ buffered: 5 });

    cloud.setReachable(true);
    backlog.drain();
    expect(cloud.published.map((p) => p.seq)).toEqual([1, 2]);
    // A report made now queues behind the older ones.
    backlog.hold(report(6), 'older reports still waiting');
    expect(cloud.published.map((p) => p.seq)).toEqual([1, 2]);

    cloud.published[1]!.ack();
    await settle();
    expect(cloud.published.map((p) => p.seq)).toEqual([1, 2, 3]);
    expect(backlog.stats.buffered).toBe(5);
    for (let i = 0; i < cloud.published.length; i++) {
      cloud.published[i]!.ack();
      await settle();
    }
    expect(cloud.published.map((p) => p.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sent).toBe(6);
    expect(backlog.pending).toBe(false);
    expect(backlog.stats.buffered).toBe(0);
  });

  it('keeps a message whose publish failed and sends it again first', async () => {
    const cloud = fakeCloud();
    const buffer = new DiskBuffer({ dir: mkdtempSync(join(tmpdir(), 'outbox-')), logger: silentLogger });
    const backlog = new Backlog(buffer, { publisher: cloud.publisher, maxInFlight: 1, logger: silentLogger });
    backlog.hold(report(1), 'cloud unreachable');
    backlog.hold(report(2), 'cloud unreachable');
    cloud.setReachable(true);
    backlog.drain();
    cloud.setReachable(false);
    cloud.published[0]!.fail();
    await settle();
    expect(backlog.stats.buffered).toBe(2);
    cloud.setReachable(true);
    backlog.drain();
    expect(cloud.published.map((p) => p.seq)).toEqual([1, 1]);
  });
});
