import { describe, expect, it } from 'vitest';
import { TopK } from './top-k.js';

/** The whole stream sorted as the list sorts it: by value, ties by id, both in `direction`. */
const sorted = (pairs: [number, number][], direction: 'asc' | 'desc') => {
  const sign = direction === 'asc' ? 1 : -1;
  return [...pairs].sort((a, b) => sign * (a[1] - b[1] || a[0] - b[0])).map(([id]) => id);
};

describe('TopK', () => {
  // A fixed pseudo-random stream with many ties and missing values at both ends.
  let seed = 7;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed;
  };
  const pairs: [number, number][] = Array.from({ length: 5000 }, (_, i) => {
    const r = next() % 100;
    const value = r === 0 ? Number.NEGATIVE_INFINITY : r === 1 ? Number.POSITIVE_INFINITY : r % 37;
    return [i * 3 + 1, value];
  });
  // Ids arrive in id order from the database; shuffled here too, so the order of arrival cannot matter.
  const shuffled = [...pairs].sort((a, b) => ((a[0] * 7919) % 5003) - ((b[0] * 7919) % 5003));

  for (const direction of ['asc', 'desc'] as const)
    for (const k of [1, 20, 1000, 5000, 6000])
      it(`keeps the first ${k} in ${direction} order, ties by id`, () => {
        for (const stream of [pairs, shuffled]) {
          const top = new TopK(k, direction);
          for (const [id, value] of stream) top.add(id, value);
          expect(top.result()).toEqual(sorted(pairs, direction).slice(0, k));
        }
      });

  it('keeps nothing for k = 0', () => {
    const top = new TopK(0, 'asc');
    top.add(1, 1);
    expect(top.result()).toEqual([]);
  });
});
