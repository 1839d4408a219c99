import { describe, expect, it } from 'vitest';
import { SortSnapshots } from './sort-snapshots.js';

/** An order of `n` ids computed on request; counts computations and the rows asked for. */
const source = (n: number) => {
  const calls: number[] = [];
  let version = 0;
  return {
    calls,
    /** Later computations give the ids in reverse. */
    change: () => {
      version++;
    },
    compute: async (rows: number) => {
      calls.push(rows);
      const ids = Array.from({ length: n }, (_, i) => (version === 0 ? i + 1 : n - i));
      return ids.slice(0, rows);
    },
  };
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('SortSnapshots', () => {
  it('reuses a fresh snapshot, answers a stale one while it is computed again, and waits once it is old', async () => {
    const snapshots = new SortSnapshots({ ttlMs: 5000, staleMs: 30_000, minRows: 10 });
    let now = 0;
    const clock = () => now;
    const s = source(100);
    expect(await snapshots.page(1, 'power', 0, 5, s.compute, clock)).toEqual([1, 2, 3, 4, 5]);
    expect(await snapshots.page(1, 'power', 5, 5, s.compute, clock)).toEqual([6, 7, 8, 9, 10]);
    expect(s.calls).toEqual([10]);

    s.change();
    now = 4999;
    expect(await snapshots.page(1, 'power', 0, 5, s.compute, clock)).toEqual([1, 2, 3, 4, 5]);
    await settle();
    expect(s.calls).toEqual([10]);
    // Stale: the old order now, the new one for the next request.
    now = 5000;
    expect(await snapshots.page(1, 'power', 0, 5, s.compute, clock)).toEqual([1, 2, 3, 4, 5]);
    await settle();
    expect(s.calls).toEqual([10, 10]);
    expect(await snapshots.page(1, 'power', 0, 5, s.compute, clock)).toEqual([100, 99, 98, 97, 96]);

    // Nobody asked for 30 s: the request waits for a new computation.
    now += 30_000;
    s.change();
    expect(await snapshots.page(1, 'power', 0, 2, s.compute, clock)).toEqual([100, 99]);
    expect(s.calls).toEqual([10, 10, 10]);
  });

  it('computes more rows for a page past the snapshot, and shares one computation between requests', async () => {
    const snapshots = new SortSnapshots({ minRows: 10 });
    const clock = () => 0;
    const s = source(100);
    const [a, b] = await Promise.all([
      snapshots.page(1, 'power', 0, 5, s.compute, clock),
      snapshots.page(1, 'power', 5, 5, s.compute, clock),
    ]);
    expect([a, b]).toEqual([
      [1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10],
    ]);
    expect(s.calls).toEqual([10]);
    // Rows 20–29: twice, then twice again, the rows held.
    expect(await snapshots.page(1, 'power', 20, 10, s.compute, clock)).toEqual([
      21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
    ]);
    expect(s.calls).toEqual([10, 40]);
    // A list shorter than the snapshot holds all of it: pages past its end are empty, not computed.
    const short = source(12);
    expect(await snapshots.page(2, 'power', 0, 10, short.compute, clock)).toHaveLength(10);
    expect(await snapshots.page(2, 'power', 20, 10, short.compute, clock)).toEqual([]);
    expect(short.calls).toEqual([10, 40]);
    expect(await snapshots.page(2, 'power', 40, 10, short.compute, clock)).toEqual([]);
    expect(short.calls).toEqual([10, 40]);
    expect(snapshots.serves(5000)).toBe(true);
    expect(snapshots.serves(5001)).toBe(false);
  });

  it('forgets a mine’s orders, and drops a computation that started before', async () => {
    const snapshots = new SortSnapshots({ minRows: 10 });
    const clock = () => 0;
    const s = source(50);
    await snapshots.page(1, 'power', 0, 5, s.compute, clock);
    await snapshots.page(2, 'power', 0, 5, s.compute, clock);
    s.change();
    snapshots.clearArea(1);
    expect(await snapshots.page(1, 'power', 0, 2, s.compute, clock)).toEqual([50, 49]);
    expect(await snapshots.page(2, 'power', 0, 2, s.compute, clock)).toEqual([1, 2]);

    let release: (ids: number[]) => void = () => {};
    const slow = snapshots.page(3, 'power', 0, 2, () => new Promise((resolve) => (release = resolve)), clock);
    snapshots.clearArea(3);
    release([7, 8]);
    expect(await slow).toEqual([7, 8]);
    expect(await snapshots.page(3, 'power', 0, 2, async () => [9, 10], clock)).toEqual([9, 10]);
  });
});
