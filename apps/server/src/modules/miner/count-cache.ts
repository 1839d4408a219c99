/**
 * Totals of recent miner list queries, kept for a few seconds. Counting a filter on a 100,000-miner
 * mine reads tens of thousands of index entries while the page itself reads fifty rows; browsers
 * page and re-sort the same filter, so the total is reused briefly. Rows are always read fresh; a
 * total may trail the live state by at most `ttlMs` (miners appear and change state by telemetry
 * anyway), and deletes through the API clear the mine's totals at once.
 */
export class CountCache {
  private readonly entries = new Map<string, { total: number; at: number }>();

  constructor(
    private readonly ttlMs = 3000,
    private readonly maxEntries = 2000,
  ) {}

  get(areaId: number, key: string, now: number): number | undefined {
    const entry = this.entries.get(`${areaId}|${key}`);
    if (!entry) return undefined;
    if (now - entry.at >= this.ttlMs || now < entry.at) {
      this.entries.delete(`${areaId}|${key}`);
      return undefined;
    }
    return entry.total;
  }

  set(areaId: number, key: string, total: number, now: number): void {
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(`${areaId}|${key}`, { total, at: now });
  }

  /** Forgets every total of a mine (after a change made through the API). */
  clearArea(areaId: number): void {
    const prefix = `${areaId}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
