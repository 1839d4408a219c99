/**
 * Seeded randomness. The simulator never touches `Math.random`: every component owns an `Rng`
 * derived from the run seed and a stable key (device id, miner index …), so a run is repeatable and
 * adding one gateway does not change the numbers of another.
 */

/** 32-bit FNV-1a hash of a string. */
export const hash32 = (text: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

/** mulberry32: a small, fast, well-distributed 32-bit PRNG. Returns floats in [0, 1). */
export const mulberry32 = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** A generator for a sub-component, independent of how much this one has been used. */
  static derive(seed: number, ...keys: Array<string | number>): Rng {
    return new Rng(hash32(`${seed >>> 0}:${keys.join(':')}`));
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next();
  }

  /** Uniform in [min, max). */
  range(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return probability > 0 && this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Pick by weight: `[[item, weight], …]`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let roll = this.next() * total;
    for (const [item, w] of items) {
      roll -= w;
      if (roll < 0) return item;
    }
    return items[items.length - 1]![0];
  }

  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/**
 * Smooth noise: an Ornstein–Uhlenbeck process (mean 0, standard deviation `sigma`, correlation time
 * `tauS` seconds). Consecutive samples drift instead of jumping, like a real sensor or hashrate.
 */
export class SmoothNoise {
  private value: number;

  constructor(
    private readonly rng: Rng,
    private readonly sigma: number,
    private readonly tauS: number,
  ) {
    this.value = rng.normal() * sigma;
  }

  step(dtS: number): number {
    if (dtS <= 0) return this.value;
    const a = Math.exp(-dtS / this.tauS);
    this.value = this.value * a + Math.sqrt(1 - a * a) * this.sigma * this.rng.normal();
    return this.value;
  }

  get current(): number {
    return this.value;
  }
}

/** First-order approach of `current` towards `target` over `dtS` with time constant `tauS`. */
export const relax = (current: number, target: number, dtS: number, tauS: number): number =>
  target + (current - target) * Math.exp(-Math.max(0, dtS) / tauS);

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

export const round = (value: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};
