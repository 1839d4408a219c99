import { type Kysely, type SelectQueryBuilder, sql, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { integerLiteral as lit } from '../../db/literal.js';
import type { DB } from '../../db/schema.js';
import type { FleetHashrateDaysTable } from './hashrate.schema.js';

/** The sums a statistic of the mine is made of (over one split key and span). */
export interface HashrateSums {
  wall_s: number;
  miners: number;
  online_miners: number;
  cover_s: number;
  reach_s: number;
  hash_s: number;
  hashrate_s: number;
  theo_s: number;
}
export const hashrateSumNames = [
  'wall_s',
  'miners',
  'online_miners',
  'cover_s',
  'reach_s',
  'hash_s',
  'hashrate_s',
  'theo_s',
] as const satisfies readonly (keyof HashrateSums)[];

/** A settled day's rows as stored: its split (or `all`), bucket, start and text. */
export type StoredDay = Omit<FleetHashrateDaysTable, 'area_id'>;

/** One miner's sums between two hours, with what the worst-miners list shows of it. */
export interface MinerSums {
  miner_id: number;
  sn: string;
  worker: string;
  model: string;
  ip: string;
  fbox_id: number;
  fbox_name: string;
  cover_s: number;
  reach_s: number;
  hash_s: number;
  hashrate_s: number;
  theo_s: number;
}

const hour = 3_600_000;
const sumCount = hashrateSumNames.length;

type FleetQuery = SelectQueryBuilder<DB, 'fleet_hashrate_1h', object>;

/** Rollup rows as arrays: each row's series, hour and its sums (`sums`, `hashrateSumNames` order). */
export interface FleetRows {
  dims: string[];
  keys: string[];
  hours: number[];
  sums: Float64Array;
}

/** Rows of named columns (`dim`, `key`, `hour_ts` and the sums, numbers or numeric text) as FleetRows. */
const fleetRowsOf = (rows: Record<string, unknown>[], shift: number): FleetRows => {
  const out: FleetRows = { dims: [], keys: [], hours: [], sums: new Float64Array(rows.length * sumCount) };
  rows.forEach((r, i) => {
    out.dims.push(String(r.dim));
    out.keys.push(String(r.key));
    out.hours.push(Number(r.hour_ts) + shift);
    hashrateSumNames.forEach((n, k) => {
      out.sums[i * sumCount + k] = Number(r[n] ?? 0);
    });
  });
  return out;
};

/** PostgreSQL's packed rows: one flat JSON array of dim, key, hour and the sums, row after row. */
const packedFleetRows = (flat: (string | number)[], shift: number): FleetRows => {
  const stride = 3 + sumCount;
  const count = flat.length / stride;
  const out: FleetRows = { dims: [], keys: [], hours: [], sums: new Float64Array(count * sumCount) };
  for (let i = 0; i < count; i++) {
    const at = i * stride;
    out.dims.push(flat[at] as string);
    out.keys.push(flat[at + 1] as string);
    out.hours.push((flat[at + 2] as number) + shift);
    for (let k = 0; k < sumCount; k++) out.sums[i * sumCount + k] = flat[at + 3 + k] as number;
  }
  return out;
};

/**
 * Sums of series (dim, key) at points (edges or hours) in one array, `sumCount` per cell, zero
 * where nothing was added: thousands of cells without an object or a key string each.
 */
export class SumsGrid {
  readonly values: Float64Array;
  private readonly series = new Map<string, number>();
  private readonly points = new Map<number, number>();

  constructor(
    keys: readonly [string, string][],
    private readonly at: readonly number[],
  ) {
    this.values = new Float64Array(keys.length * at.length * sumCount);
    keys.forEach(([dim, key], i) => {
      this.series.set(`${dim}|${key}`, i);
    });
    at.forEach((p, j) => {
      this.points.set(p, j);
    });
  }

  /** The index of point `p` (one of the grid's points). */
  index(p: number): number {
    const j = this.points.get(p);
    if (j === undefined) throw new Error(`not a point of the grid: ${p}`);
    return j;
  }

  /** Where cell (series `i`, point `j`) begins in `values`. */
  cell(i: number, j: number): number {
    return (i * this.at.length + j) * sumCount;
  }

  /** Copies rows of known series and points into their cells, marking them in `found`. */
  add(rows: FleetRows, found?: Uint8Array): void {
    for (let r = 0; r < rows.hours.length; r++) {
      const i = this.series.get(`${rows.dims[r]}|${rows.keys[r]}`);
      const j = this.points.get(rows.hours[r]!);
      if (i === undefined || j === undefined) continue;
      this.values.set(rows.sums.subarray(r * sumCount, (r + 1) * sumCount), this.cell(i, j));
      if (found) found[i * this.at.length + j] = 1;
    }
  }
}

/** Hashrate overview's reads of the hourly rollups (migration 0023) and the names of its series. Kysely only. */
export class HashrateRepository {
  constructor(
    private readonly db: Kysely<DB> | Transaction<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** The keys of a mine's series in a split (every key ever rolled up). */
  async keysOf(areaId: number, dim: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('fleet_hashrate_keys')
      .select('key')
      .where('area_id', '=', areaId)
      .where('dim', '=', dim)
      .execute();
    return rows.map((r) => r.key);
  }

  /**
   * Running totals of each (dim, key) at each edge: the sums of every hour before the edge, as
   * `SumsGrid` cells (zero when nothing was rolled up before it). Edges are whole hours, so where
   * the series has a row for the hour just before an edge, that row holds the totals: one range
   * read finds those. Only the rest (an hour without miners, a range before the mine's first
   * rollup) looks up the series' last earlier hour, one correlated look-up each.
   */
  async totalsAt(areaId: number, keys: [string, string][], edges: number[]): Promise<SumsGrid> {
    const grid = new SumsGrid(keys, edges);
    if (keys.length === 0 || edges.length === 0) return grid;
    const direct = await this.fleetRows(
      'cum_',
      (q) =>
        q
          .where('area_id', '=', areaId)
          .where('dim', 'in', [...new Set(keys.map(([dim]) => dim))])
          .where(
            'hour_ts',
            'in',
            edges.map((e) => e - hour),
          ),
      hour,
    );
    const found = new Uint8Array(keys.length * edges.length);
    grid.add(direct, found);
    const missing: [string, string, number][] = [];
    keys.forEach(([dim, key], i) => {
      edges.forEach((edge, j) => {
        if (!found[i * edges.length + j]) missing.push([dim, key, edge]);
      });
    });
    if (missing.length === 0) return grid;
    const wanted = sql.join(missing.map(([dim, key, edge]) => sql`(${dim}, ${key}, ${sql.raw(lit(edge))})`));
    const { rows } = await sql<Record<string, string | number | null> & { dim: string; key: string }>`
      with m(dim, key, edge) as (values ${wanted})
      select m.dim, m.key, m.edge as hour_ts, ${sql.raw(hashrateSumNames.map((n) => `f.cum_${n} as ${n}`).join(', '))}
      from m
      left join fleet_hashrate_1h f on f.area_id = ${areaId} and f.dim = m.dim and f.key = m.key
        and f.hour_ts = (select max(q.hour_ts) from fleet_hashrate_1h q
          where q.area_id = ${areaId} and q.dim = m.dim and q.key = m.key and q.hour_ts < m.edge)`.execute(
      this.db,
    );
    grid.add(fleetRowsOf(rows, 0));
    return grid;
  }

  /** The hourly rows of the mine's total and of a split's series, for hours starting in [from, to). */
  hours(areaId: number, split: string, from: number, to: number): Promise<FleetRows> {
    return this.fleetRows(
      '',
      (q) =>
        q
          .where('area_id', '=', areaId)
          .where('dim', 'in', ['all', split])
          .where('hour_ts', '>=', from)
          .where('hour_ts', '<', to),
      0,
    );
  }

  /**
   * Rows of `fleet_hashrate_1h` chosen by `where`: their series, hour (+ `shift`) and sums (the
   * hour's own, or with `prefix` "cum_" the running totals). A 30-day read of a 200-box mine by
   * day is 6,200 rows: PostgreSQL sends them as one JSON text (decoding 68,000 fields one by one
   * cost more than all the rest of the call), SQLite as rows.
   */
  private async fleetRows(
    prefix: '' | 'cum_',
    where: (q: FleetQuery) => FleetQuery,
    shift: number,
  ): Promise<FleetRows> {
    const sums = hashrateSumNames.map((n) => `${prefix}${n}`);
    if (this.dialect === 'postgres') {
      const fields = sql.raw(['to_json(dim)::text', 'to_json(key)::text', 'hour_ts', ...sums].join(', '));
      const query = where(this.db.selectFrom('fleet_hashrate_1h')).select(
        sql<string | null>`'[' || string_agg(concat_ws(',', ${fields}), ',') || ']'`.as('packed'),
      );
      const row = await query.executeTakeFirst();
      return packedFleetRows(JSON.parse(row?.packed ?? '[]') as (string | number)[], shift);
    }
    const rows = await where(this.db.selectFrom('fleet_hashrate_1h'))
      .select(['dim', 'key', 'hour_ts', ...sums.map((c, i) => sql.ref(c).as(hashrateSumNames[i]!))])
      .execute();
    return fleetRowsOf(rows as Record<string, unknown>[], shift);
  }

  /** The stored settled days of a split (`fleet_hashrate_days`) in buckets of `bucket`: each day's rows text. */
  async storedDays(
    areaId: number,
    dim: string,
    bucket: StoredDay['bucket'],
    days: readonly number[],
  ): Promise<Map<number, string>> {
    if (days.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('fleet_hashrate_days')
      .select(['day_ts', 'rows_json'])
      .where('area_id', '=', areaId)
      .where('dim', '=', dim)
      .where('bucket', '=', bucket)
      .where('day_ts', 'in', days)
      .execute();
    return new Map(rows.map((r) => [Number(r.day_ts), r.rows_json]));
  }

  /**
   * Computes and stores settled days: `compute` reads what it needs through the repository it is
   * given and answers the days' texts. No rollup's change of those hours goes unforgotten: on
   * SQLite the connection is one, so the transaction runs alone; on PostgreSQL it holds a lock that
   * conflicts with the row-exclusive lock the rollup's forgetting takes, so the rollup forgets these
   * days after it, or this reads the rollup's committed hours.
   */
  async fillDays(areaId: number, compute: (repo: HashrateRepository) => Promise<StoredDay[]>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (this.dialect === 'postgres')
        await sql`lock table fleet_hashrate_days in share row exclusive mode`.execute(trx);
      const days = await compute(new HashrateRepository(trx, this.dialect));
      if (days.length === 0) return;
      await trx
        .insertInto('fleet_hashrate_days')
        .values(days.map((d) => ({ area_id: areaId, ...d })))
        .onConflict((c) => c.columns(['area_id', 'dim', 'bucket', 'day_ts']).doNothing())
        .execute();
    });
  }

  /** Ids and names of a mine's FBOXes. */
  fboxNames(areaId: number) {
    return this.db.selectFrom('fboxes').select(['id', 'name']).where('area_id', '=', areaId).execute();
  }

  /** Ids and names of a mine's miner groups. */
  groupNames(areaId: number) {
    return this.db.selectFrom('miner_groups').select(['id', 'name']).where('area_id', '=', areaId).execute();
  }

  /**
   * The mine's miners with a theoretical hashrate and rolled-up time in hours [from, to), lowest
   * ratio first (then most hashrate lost per second), at most `limit`.
   */
  async worstMiners(areaId: number, from: number, to: number, limit: number): Promise<MinerSums[]> {
    const cum = (c: string) => `(b.cum_${c} - coalesce(a.cum_${c}, 0))`;
    const { rows } = await sql<{
      miner_id: number;
      sn: string;
      worker: string;
      model: string;
      ip: string;
      fbox_id: number;
      fbox_name: string;
      cover_s: number | string;
      reach_s: number | string;
      hash_s: number | string;
      hashrate_s: number | string;
      theo_s: number | string;
    }>`select * from (
        select s.miner_id, s.sn, s.worker, s.model, s.ip, s.fbox_id, f.name as fbox_name,
          ${sql.raw(['cover_s', 'reach_s', 'hash_s', 'hashrate_s', 'theo_s'].map((c) => `${cum(c)} as ${c}`).join(', '))}
        from miner_info s
        join fboxes f on f.id = s.fbox_id
        join miner_hashrate_1h b on b.miner_id = s.miner_id and b.hour_ts = (
          select max(q.hour_ts) from miner_hashrate_1h q where q.miner_id = s.miner_id and q.hour_ts < ${to})
        left join miner_hashrate_1h a on a.miner_id = s.miner_id and a.hour_ts = (
          select max(q.hour_ts) from miner_hashrate_1h q where q.miner_id = s.miner_id and q.hour_ts < ${from})
        where s.area_id = ${areaId}
      ) x
      where x.theo_s > 0 and x.cover_s > 0
      order by x.hashrate_s / x.theo_s, (x.theo_s - x.hashrate_s) / x.cover_s desc, x.miner_id
      limit ${limit}`.execute(this.db);
    return rows.map((r) => ({
      miner_id: Number(r.miner_id),
      sn: r.sn,
      worker: r.worker,
      model: r.model,
      ip: r.ip,
      fbox_id: Number(r.fbox_id),
      fbox_name: r.fbox_name,
      cover_s: Number(r.cover_s),
      reach_s: Number(r.reach_s),
      hash_s: Number(r.hash_s),
      hashrate_s: Number(r.hashrate_s),
      theo_s: Number(r.theo_s),
    }));
  }
}
