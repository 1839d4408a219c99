import type { Clock } from '../../lib/clock.js';

/**
 * Where deep pages of a large miner list in id order begin (issue 17: every request the console
 * makes within 3× of the bare route, a deep page included). Page 1,000 read by offset walks the
 * 19,980 ids before it on every request: 9 ms p50 and 6× the bare route at 1,000,000 miners on
 * SQLite, holding the event loop. Here the id at every `step`-th position of a list is kept for
 * `ttlMs`, and a page reads the ids after that anchor with the rest of its offset, so only the
 * first page near a position in that time walks to it.
 *
 * Like sort snapshots and counts, a list may be up to `ttlMs` old as to which miners come before a
 * position; the rows of the page are read fresh. `clearArea` (device changes) forgets a mine's.
 */
export class PageAnchors {
  private readonly entries = new Map<string, { id: number | undefined; at: number }>();
  /** Counts `clearArea` calls: an anchor looked up before one is not kept. */
  private generation = 0;

  constructor(
    private readonly options: { step?: number | undefined; ttlMs?: number; maxEntries?: number } = {},
  ) {}

  /** The anchored position at or before `offset` (0: the page is read from the top). */
  position(offset: number): number {
    const step = this.options.step ?? 1000;
    return Math.floor(offset / step) * step;
  }

  /**
   * The id at `position - 1` of list `key` of mine `areaId` (the rows of the page follow it), or
   * undefined when the list is shorter; `find` reads it from the database.
   */
  async before(
    areaId: number,
    key: string,
    position: number,
    find: () => Promise<number | undefined>,
    clock: Clock,
  ): Promise<number | undefined> {
    const entry = `${areaId}|${position}|${key}`;
    const hit = this.entries.get(entry);
    if (hit && clock() - hit.at < (this.options.ttlMs ?? 5000)) return hit.id;
    const generation = this.generation;
    const id = await find();
    if (generation === this.generation) {
      if (this.entries.size >= (this.options.maxEntries ?? 1000)) this.entries.clear();
      this.entries.set(entry, { id, at: clock() });
    }
    return id;
  }

  clearArea(areaId: number): void {
    this.generation++;
    for (const entry of this.entries.keys()) if (entry.startsWith(`${areaId}|`)) this.entries.delete(entry);
  }
}
