interface Entry {
  total: number;
  at: number;
  /** A count running in the background for this entry. */
  refreshing: boolean;
}

/** A cached total, and whether it is younger than the cache's `ttlMs`. */
export interface CachedTotal {
  total: number;
  fresh: boolean;
}

/**
 * Totals of recent miner list queries. Counting a filter on a 100,000-miner mine reads tens of
 * thousands of index entries while the page itself reads fifty rows (on PostgreSQL at 1,000,000
 * miners a parallel scan of 160–350 ms); browsers page, re-sort and refresh the same filter, so the
 * total is reused. Rows are always read fresh. A total younger than `ttlMs` is used as it is; an
 * older one, up to `staleMs`, is answered while `refresh` counts again in the background, so a
 * request waits for a count only when nobody asked for that filter for `staleMs`. Deletes through
 * the API clear the mine's totals at once; the caller recounts at once a total its page contradicts.
 */
export class CountCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 3000,
    private readonly staleMs = 30_000,
    private readonly maxEntries = 2000,
  ) {}

  get(areaId: number, key: string, now: number): CachedTotal | undefined {
    const entry = this.entries.get(`${areaId}|${key}`);
    if (!entry) return undefined;
    const age = now - entry.at;
    if (age >= this.staleMs || age < 0) {
      this.entries.delete(`${areaId}|${key}`);
      return undefined;
    }
    return { total: entry.total, fresh: age < this.ttlMs };
  }

  set(areaId: number, key: string, total: number, now: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(`${areaId}|${key}`, { total, at: now, refreshing: false });
  }

  /**
   * Counts a stale total again in the background, one count per filter at a time. The result
   * replaces the entry only if it is still the one cached (not cleared or replaced meanwhile); a
   * count that fails leaves the stale total to expire.
   */
  refresh(areaId: number, key: string, count: () => Promise<number>, clock: () => number): void {
    const entry = this.entries.get(`${areaId}|${key}`);
    if (!entry || entry.refreshing) return;
    entry.refreshing = true;
    // After the current turn, so the request that found the total stale is answered first.
    setImmediate(() =>
      count().then(
        (total) => {
          if (this.entries.get(`${areaId}|${key}`) === entry) this.set(areaId, key, total, clock());
        },
        () => {
          entry.refreshing = false;
        },
      ),
    );
  }

  /** Forgets every total of a mine (after a change made through the API). */
  clearArea(areaId: number): void {
    const prefix = `${areaId}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
