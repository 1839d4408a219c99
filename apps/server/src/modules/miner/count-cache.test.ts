import { describe, expect, it } from 'vitest';
import { CountCache } from './count-cache.js';

/** Lets the background count (started after the current turn) finish. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('CountCache', () => {
  it('is fresh for ttlMs, stale until staleMs, then gone', () => {
    const cache = new CountCache(3000, 30_000);
    cache.set(1, 'all', 10, 0);
    expect(cache.get(1, 'all', 2999)).toEqual({ total: 10, fresh: true });
    expect(cache.get(1, 'all', 3000)).toEqual({ total: 10, fresh: false });
    expect(cache.get(2, 'all', 3000)).toBeUndefined();
    expect(cache.get(1, 'all', 30_000)).toBeUndefined();
  });

  it('counts a stale total once at a time and keeps the new one', async () => {
    const cache = new CountCache(3000, 30_000);
    cache.set(1, 'all', 10, 0);
    let now = 5000;
    let calls = 0;
    const count = async () => {
      calls++;
      return 12;
    };
    cache.refresh(1, 'all', count, () => now);
    cache.refresh(1, 'all', count, () => now);
    await settle();
    expect(calls).toBe(1);
    expect(cache.get(1, 'all', now)).toEqual({ total: 12, fresh: true });
    now = 9000;
    cache.refresh(1, 'all', count, () => now);
    await settle();
    expect(calls).toBe(2);
  });

  it('drops a count that finishes after its mine was cleared, and keeps the stale total when a count fails', async () => {
    const cache = new CountCache(3000, 30_000);
    cache.set(1, 'all', 10, 0);
    let finish: (n: number) => void = () => {};
    cache.refresh(
      1,
      'all',
      () => new Promise<number>((resolve) => (finish = resolve)),
      () => 5000,
    );
    await settle();
    cache.clearArea(1);
    finish(12);
    await settle();
    expect(cache.get(1, 'all', 5000)).toBeUndefined();

    cache.set(1, 'all', 10, 0);
    cache.refresh(
      1,
      'all',
      () => Promise.reject(new Error('gone')),
      () => 5000,
    );
    await settle();
    expect(cache.get(1, 'all', 5000)).toEqual({ total: 10, fresh: false });
    let calls = 0;
    cache.refresh(
      1,
      'all',
      async () => {
        calls++;
        return 11;
      },
      () => 6000,
    );
    await settle();
    expect(calls).toBe(1);
    expect(cache.get(1, 'all', 6000)).toEqual({ total: 11, fresh: true });
  });
});
