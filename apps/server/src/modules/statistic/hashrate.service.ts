import {
  type HashrateOverview,
  type HashrateOverviewQuery,
  type HashrateStat,
  type HashrateWorst,
  type HashrateWorstQuery,
  timeZoneOffsetMinutes,
} from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AreaService } from '../area/area.service.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { UserRepository } from '../user/user.repository.js';
import { HashrateRepository, type HashrateSums as Sums, zeroSums as zero } from './hashrate.repository.js';

const hour = 3_600_000;
const day = 24 * hour;

/** `b − a`, field by field (written out: it runs once per series and bucket). */
const minus = (b: Sums, a: Sums): Sums => ({
  wall_s: b.wall_s - a.wall_s,
  miners: b.miners - a.miners,
  online_miners: b.online_miners - a.online_miners,
  cover_s: b.cover_s - a.cover_s,
  reach_s: b.reach_s - a.reach_s,
  hash_s: b.hash_s - a.hash_s,
  hashrate_s: b.hashrate_s - a.hashrate_s,
  theo_s: b.theo_s - a.theo_s,
});
const none = zero();

const round = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};
const share = (part: number, whole: number) => (whole > 0 ? round(Math.min(1, part / whole), 6) : null);

/**
 * The figures of a span's sums; averages of hashrate are over `wallS` (the whole mine's rolled-up
 * time), so the series of a split add up to the mine. Null when nothing was rolled up.
 */
export const statOf = (s: Sums, wallS: number): HashrateStat | null => {
  if (s.cover_s <= 0 || wallS <= 0) return null;
  return {
    hashrate: round(s.hashrate_s / wallS, 3),
    theoretical: round(s.theo_s / wallS, 3),
    ratio: s.theo_s > 0 ? round(s.hashrate_s / s.theo_s, 6) : null,
    online_rate: share(s.online_miners, s.miners),
    reachable_uptime: share(s.reach_s, s.cover_s),
    hashing_uptime: share(s.hash_s, s.cover_s),
  };
};
const empty: HashrateStat = {
  hashrate: null,
  theoretical: null,
  ratio: null,
  online_rate: null,
  reachable_uptime: null,
  hashing_uptime: null,
};

/** Local midnight (epoch ms) of the day holding `ts`, in a zone `offsetMs` east of UTC. */
const dayStart = (ts: number, offsetMs: number) => Math.floor((ts + offsetMs) / day) * day - offsetMs;

/**
 * Hashrate overview of a mine (docs/statistics.md, "Hashrate overview"): read from the hourly
 * per-split rollups' running totals, so a range costs a few index look-ups per series and bucket
 * edge whatever its length and the mine's size.
 */
export class HashrateService {
  private readonly repo: HashrateRepository;

  constructor(private readonly deps: { db: Kysely<DB>; areas: AreaService }) {
    this.repo = new HashrateRepository(deps.db);
  }

  private async zoneOf(user: AreaCaller) {
    const zone = (await new UserRepository(this.deps.db).timeZone(user.id)) ?? 'UTC+0';
    return { zone, offsetMs: timeZoneOffsetMinutes(zone) * 60_000 };
  }

  /** Names of the split's series keys. */
  private async names(areaId: number, split: HashrateOverviewQuery['split'], keys: string[]) {
    const names = new Map<string, string>();
    if (split === 'model') for (const k of keys) names.set(k, k);
    if (split === 'fbox') {
      const boxes = await this.repo.fboxNames(areaId);
      for (const b of boxes) names.set(String(b.id), b.name);
    }
    if (split === 'group') {
      const groups = await this.repo.groupNames(areaId);
      for (const g of groups) names.set(String(g.id), g.name);
    }
    return names;
  }

  async overview(user: AreaCaller, q: HashrateOverviewQuery): Promise<HashrateOverview> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const { zone, offsetMs } = await this.zoneOf(user);
    let from = Math.floor(q.from / hour) * hour;
    let to = Math.ceil(q.to / hour) * hour;
    if (q.bucket === 'day') {
      from = dayStart(from, offsetMs);
      to = dayStart(to - 1, offsetMs) + day;
    }
    // Series in their keys' order: the rows come out sorted by bucket, then key.
    const keys = (await this.repo.keysOf(q.area_id, q.split)).sort((a, b) => a.localeCompare(b));
    const pairs: [string, string][] = [['all', ''], ...keys.map((k): [string, string] => [q.split, k])];
    const edges: number[] = [from];
    if (q.bucket === 'day') for (let e = from + day; e < to; e += day) edges.push(e);
    edges.push(to);
    const totals = await this.repo.totalsAt(q.area_id, pairs, edges);
    const sumsAt = (dim: string, key: string, a: number, b: number) =>
      minus(totals.get(`${dim}|${key}|${b}`) ?? none, totals.get(`${dim}|${key}|${a}`) ?? none);

    // Per bucket: differences of the running totals (days), or the hourly rows themselves.
    const buckets: { ts: number; dim: string; key: string; sums: Sums }[] = [];
    if (q.bucket === 'day') {
      for (let i = 0; i + 1 < edges.length; i++)
        for (const [dim, key] of pairs)
          buckets.push({ ts: edges[i]!, dim, key, sums: sumsAt(dim, key, edges[i]!, edges[i + 1]!) });
    } else {
      const order = new Map(keys.map((k, i) => [k, i]));
      const hours = await this.repo.hours(q.area_id, q.split, from, to);
      const rank = (r: (typeof hours)[number]) => (r.dim === 'all' ? -1 : (order.get(r.key) ?? keys.length));
      hours.sort((a, b) => a.hour_ts - b.hour_ts || rank(a) - rank(b));
      for (const r of hours) buckets.push({ ts: r.hour_ts, dim: r.dim, key: r.key, sums: r.sums });
    }
    const wallAt = new Map<number, number>();
    for (const b of buckets) if (b.dim === 'all') wallAt.set(b.ts, b.sums.wall_s);
    const totalRows: HashrateOverview['totals'] = [];
    const rows: HashrateOverview['rows'] = [];
    for (const b of buckets) {
      const stat = statOf(b.sums, wallAt.get(b.ts) ?? 0);
      if (!stat) continue;
      if (b.dim === 'all') totalRows.push({ bucket_ts: b.ts, ...stat });
      else rows.push({ bucket_ts: b.ts, key: b.key, ...stat });
    }

    const all = sumsAt('all', '', from, to);
    const names = await this.names(q.area_id, q.split, keys);
    const series = keys
      .map((key) => ({ key, stat: statOf(sumsAt(q.split, key, from, to), all.wall_s) }))
      .filter((s): s is { key: string; stat: HashrateStat } => s.stat !== null)
      .map((s) => ({ key: s.key, name: names.get(s.key) ?? '', ...s.stat }))
      .sort((a, b) => (b.hashrate ?? 0) - (a.hashrate ?? 0) || a.key.localeCompare(b.key));
    return {
      bucket: q.bucket,
      split: q.split,
      time_zone: zone,
      from,
      to,
      kpi: statOf(all, all.wall_s) ?? empty,
      totals: totalRows,
      series,
      rows,
    };
  }

  async worst(user: AreaCaller, q: HashrateWorstQuery): Promise<HashrateWorst> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const from = Math.floor(q.from / hour) * hour;
    const to = Math.ceil(q.to / hour) * hour;
    const rows = await this.repo.worstMiners(q.area_id, from, to, q.limit);
    return {
      from,
      to,
      items: rows.map((r) => {
        const cover = r.cover_s;
        const hashrate = r.hashrate_s / cover;
        const theoretical = r.theo_s / cover;
        return {
          miner_id: r.miner_id,
          sn: r.sn,
          worker: r.worker,
          model: r.model,
          ip: r.ip,
          fbox_id: r.fbox_id,
          fbox_name: r.fbox_name,
          hashrate: round(hashrate, 3),
          theoretical: round(theoretical, 3),
          ratio: round(r.hashrate_s / r.theo_s, 6),
          lost: round(theoretical - hashrate, 3),
          reachable_uptime: share(r.reach_s, cover) ?? 0,
          hashing_uptime: share(r.hash_s, cover) ?? 0,
        };
      }),
    };
  }
}
