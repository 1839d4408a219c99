import { type Kysely, sql } from 'kysely';
import { integerLiteral as lit } from '../../db/literal.js';
import type { DB } from '../../db/schema.js';

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
/** The sums of a row (numbers or the driver's numeric strings; absent is 0), written out: it runs per row. */
export const sumsOf = (
  r: { [K in keyof HashrateSums]?: unknown } | Record<string, unknown>,
): HashrateSums => ({
  wall_s: Number(r.wall_s ?? 0),
  miners: Number(r.miners ?? 0),
  online_miners: Number(r.online_miners ?? 0),
  cover_s: Number(r.cover_s ?? 0),
  reach_s: Number(r.reach_s ?? 0),
  hash_s: Number(r.hash_s ?? 0),
  hashrate_s: Number(r.hashrate_s ?? 0),
  theo_s: Number(r.theo_s ?? 0),
});
export const zeroSums = (): HashrateSums => sumsOf({});

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

/** Hashrate overview's reads of the hourly rollups (migration 0023) and the names of its series. Kysely only. */
export class HashrateRepository {
  constructor(private readonly db: Kysely<DB>) {}

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
   * Running totals of each (dim, key) at each edge: the sums of every hour before the edge, keyed
   * `dim|key|edge` (zero when nothing was rolled up before it). Edges are whole hours, so where the
   * series has a row for the hour just before an edge, that row holds the totals: one range read
   * finds those. Only the rest (an hour without miners, a range before the mine's first rollup)
   * looks up the series' last earlier hour, one correlated look-up each.
   */
  async totalsAt(
    areaId: number,
    keys: [string, string][],
    edges: number[],
  ): Promise<Map<string, HashrateSums>> {
    const at = new Map<string, HashrateSums>();
    if (keys.length === 0 || edges.length === 0) return at;
    const before = edges.map((e) => e - hour);
    const direct = await this.db
      .selectFrom('fleet_hashrate_1h')
      .select(['dim', 'key', 'hour_ts', ...hashrateSumNames.map((n) => sql.ref(`cum_${n}`).as(n))])
      .where('area_id', '=', areaId)
      .where('dim', 'in', [...new Set(keys.map(([dim]) => dim))])
      .where('hour_ts', 'in', before)
      .execute();
    const found = new Map(direct.map((r) => [`${r.dim}|${r.key}|${Number(r.hour_ts) + hour}`, r]));
    const missing: [string, string, number][] = [];
    for (const [dim, key] of keys)
      for (const edge of edges) {
        const row = found.get(`${dim}|${key}|${edge}`);
        if (row) at.set(`${dim}|${key}|${edge}`, sumsOf(row));
        else missing.push([dim, key, edge]);
      }
    if (missing.length === 0) return at;
    const wanted = sql.join(missing.map(([dim, key, edge]) => sql`(${dim}, ${key}, ${sql.raw(lit(edge))})`));
    const { rows } = await sql<Record<string, string | number | null> & { dim: string; key: string }>`
      with m(dim, key, edge) as (values ${wanted})
      select m.dim, m.key, m.edge, ${sql.raw(hashrateSumNames.map((n) => `f.cum_${n} as ${n}`).join(', '))}
      from m
      left join fleet_hashrate_1h f on f.area_id = ${areaId} and f.dim = m.dim and f.key = m.key
        and f.hour_ts = (select max(q.hour_ts) from fleet_hashrate_1h q
          where q.area_id = ${areaId} and q.dim = m.dim and q.key = m.key and q.hour_ts < m.edge)`.execute(
      this.db,
    );
    for (const r of rows) at.set(`${r.dim}|${r.key}|${Number(r.edge)}`, sumsOf(r));
    return at;
  }

  /** The hourly rows of the mine's total and of a split's series, for hours starting in [from, to). */
  async hours(
    areaId: number,
    split: string,
    from: number,
    to: number,
  ): Promise<{ hour_ts: number; dim: string; key: string; sums: HashrateSums }[]> {
    const rows = await this.db
      .selectFrom('fleet_hashrate_1h')
      .select(['dim', 'key', 'hour_ts', ...hashrateSumNames])
      .where('area_id', '=', areaId)
      .where('dim', 'in', ['all', split])
      .where('hour_ts', '>=', from)
      .where('hour_ts', '<', to)
      .execute();
    return rows.map((r) => ({ hour_ts: Number(r.hour_ts), dim: r.dim, key: r.key, sums: sumsOf(r) }));
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
        from miner_state s
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
