interface Snapshot {
  /** The first `rows` miners of the order, or all of them when fewer. */
  ids: number[];
  rows: number;
  at: number;
  /** A computation for this entry running in the background. */
  refreshing: boolean;
}

/**
 * The order of a large mine's miner list on a sort no index serves: the first rows of the order,
 * computed in the background and reused by the pages after. A page sorted on a reading of a
 * 1,000,000-miner mine reads and sorts every row (about 0.2 s of SQLite, holding the server's one
 * event loop; 0.2–0.3 s of PostgreSQL), while the page itself is 20 rows by primary key.
 *
 * Which miners are on a page comes from the snapshot; their rows, and their order within the page,
 * are read fresh. A snapshot younger than `ttlMs` is used as it is; an older one, up to `staleMs`,
 * is used while the order is computed again in the background. Without one (or past `staleMs`, or
 * for a page beyond the rows it holds) the request waits for the computation; requests for the
 * same order share it. Pages past `maxRows` are not served from snapshots.
 */
export class SortSnapshots {
  private readonly entries = new Map<string, Snapshot>();
  private readonly pending = new Map<string, Promise<Snapshot>>();
  /** Counts `clearArea` calls: a computation started before one is not kept. */
  private generation = 0;

  constructor(
    readonly options: {
      ttlMs?: number;
      staleMs?: number;
      /** Rows kept per order at least (pages of 20: 50 pages). */
      minRows?: number;
      /** The deepest row a snapshot serves. */
      maxRows?: number;
      maxEntries?: number;
    } = {},
  ) {}

  private get ttlMs() {
    return this.options.ttlMs ?? 5000;
  }
  private get staleMs() {
    return this.options.staleMs ?? 30_000;
  }

  /** Whether a page ending at row `end` is within what snapshots serve. */
  serves(end: number): boolean {
    return end <= (this.options.maxRows ?? 5000);
  }

  /**
   * The ids of rows `offset` to `offset + limit` of the order `key` of mine `areaId`, from a
   * snapshot; `compute(rows)` gives the first `rows` ids of the order.
   */
  async page(
    areaId: number,
    key: string,
    offset: number,
    limit: number,
    compute: (rows: number) => Promise<number[]>,
    clock: () => number,
  ): Promise<number[]> {
    const end = offset + limit;
    return (await this.snapshot(areaId, key, end, compute, clock)).ids.slice(offset, end);
  }

  /**
   * Every id of the order `key` of mine `areaId`, from a snapshot: for a short list, which
   * `compute` gives whole (the miners of a keyword that matches few).
   */
  async all(areaId: number, key: string, compute: () => Promise<number[]>, clock: () => number) {
    return (await this.snapshot(areaId, key, 0, compute, clock)).ids;
  }

  /** A snapshot of the order that covers its first `end` rows (see `page`). */
  private async snapshot(
    areaId: number,
    key: string,
    end: number,
    compute: (rows: number) => Promise<number[]>,
    clock: () => number,
  ): Promise<Snapshot> {
    const id = `${areaId}|${key}`;
    const now = clock();
    let entry = this.entries.get(id);
    const age = entry ? now - entry.at : Number.POSITIVE_INFINITY;
    const covers = entry !== undefined && (entry.ids.length < entry.rows || end <= entry.rows);
    if (!entry || !covers || age >= this.staleMs || age < 0) {
      entry = await this.compute(id, Math.max(end, entry?.rows ?? 0), compute, clock);
    } else if (age >= this.ttlMs && !entry.refreshing) {
      this.refresh(id, entry, compute, clock);
    }
    return entry;
  }

  private compute(
    id: string,
    end: number,
    compute: (rows: number) => Promise<number[]>,
    clock: () => number,
  ): Promise<Snapshot> {
    const running = this.pending.get(id);
    if (running)
      return running.then((s) =>
        s.ids.length < s.rows || end <= s.rows ? s : this.compute(id, end, compute, clock),
      );
    // Room for the pages after this one: a power of two from `minRows`.
    let rows = this.options.minRows ?? 1000;
    while (rows < end) rows *= 2;
    const started = clock();
    const generation = this.generation;
    const computing = compute(rows).then(
      (ids) => {
        if (this.pending.get(id) === computing) this.pending.delete(id);
        const snapshot: Snapshot = { ids, rows, at: started, refreshing: false };
        if (generation !== this.generation) return snapshot;
        if (this.entries.size >= (this.options.maxEntries ?? 200)) this.entries.clear();
        this.entries.set(id, snapshot);
        return snapshot;
      },
      (error: unknown) => {
        if (this.pending.get(id) === computing) this.pending.delete(id);
        throw error;
      },
    );
    this.pending.set(id, computing);
    return computing;
  }

  /** Computes a stale snapshot again after the current turn; a failure leaves it to expire. */
  private refresh(
    id: string,
    entry: Snapshot,
    compute: (rows: number) => Promise<number[]>,
    clock: () => number,
  ) {
    entry.refreshing = true;
    setImmediate(() => {
      if (this.entries.get(id) !== entry) return;
      this.compute(id, entry.rows, compute, clock).catch(() => {
        entry.refreshing = false;
      });
    });
  }

  /** Forgets every order of a mine (after a change made through the API). */
  clearArea(areaId: number): void {
    const prefix = `${areaId}|`;
    this.generation++;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
    for (const key of this.pending.keys()) if (key.startsWith(prefix)) this.pending.delete(key);
  }
}
