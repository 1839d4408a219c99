import {
  type HashrateOverview,
  type HashrateOverviewQuery,
  type HashrateStat,
  type HashrateWorst,
  type HashrateWorstQuery,
  timeZoneOffsetMinutes,
} from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import type { AreaService } from '../area/area.service.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { UserRepository } from '../user/user.repository.js';
import { HashrateRepository, SumsGrid } from './hashrate.repository.js';

const hour = 3_600_000;
const day = 24 * hour;

const round = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};
const share = (part: number, whole: number) => (whole > 0 ? round(Math.min(1, part / whole), 6) : null);

/**
 * The figures of a grid cell's sums at `y` (minus the cell at `x`, unless -1), read in place: it
 * runs once per series and bucket, thousands of times a call. Averages of hashrate are over
 * `wallS` (the whole mine's rolled-up time), so the series of a split add up to the mine. Null
 * when nothing was rolled up.
 */
const cellStat = (v: Float64Array, y: number, x: number, wallS: number): HashrateStat | null => {
  const d = (k: number) => (x < 0 ? v[y + k]! : v[y + k]! - v[x + k]!);
  const cover = d(3);
  if (cover <= 0 || wallS <= 0) return null;
  const hashrate = d(6);
  const theo = d(7);
  return {
    hashrate: round(hashrate / wallS, 3),
    theoretical: round(theo / wallS, 3),
    ratio: theo > 0 ? round(hashrate / theo, 6) : null,
    online_rate: share(d(2), d(1)),
    reachable_uptime: share(d(4), cover),
    hashing_uptime: share(d(5), cover),
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

  constructor(private readonly deps: { db: Kysely<DB>; dialect: Dialect; areas: AreaService }) {
    this.repo = new HashrateRepository(deps.db, deps.dialect);
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

    // Per bucket: differences of the running totals at its edges (days), or the hourly rows.
    let grid = totals;
    let starts = edges.slice(0, -1);
    let before: (j: number) => number = (j) => j;
    let after: (j: number) => number = (j) => j + 1;
    if (q.bucket === 'hour') {
      starts = [];
      for (let h = from; h < to; h += hour) starts.push(h);
      grid = new SumsGrid(pairs, starts);
      grid.add(await this.repo.hours(q.area_id, q.split, from, to));
      before = () => -1;
      after = (j) => j;
    }
    const totalRows: HashrateOverview['totals'] = [];
    const rows: HashrateOverview['rows'] = [];
    const v = grid.values;
    starts.forEach((ts, j) => {
      const a = before(j);
      const b = after(j);
      const wallS = a < 0 ? v[grid.cell(0, b)]! : v[grid.cell(0, b)]! - v[grid.cell(0, a)]!;
      const total = cellStat(v, grid.cell(0, b), a < 0 ? -1 : grid.cell(0, a), wallS);
      if (total) totalRows.push({ bucket_ts: ts, ...total });
      for (let i = 1; i < pairs.length; i++) {
        const stat = cellStat(v, grid.cell(i, b), a < 0 ? -1 : grid.cell(i, a), wallS);
        if (!stat) continue;
        // The row is the stat with its bucket and key added: no second object per row.
        const row = stat as HashrateOverview['rows'][number];
        row.bucket_ts = ts;
        row.key = pairs[i]![1];
        rows.push(row);
      }
    });

    const last = edges.length - 1;
    const range = (i: number, wallS: number) =>
      cellStat(totals.values, totals.cell(i, last), totals.cell(i, 0), wallS);
    const allWallS = totals.values[totals.cell(0, last)]! - totals.values[totals.cell(0, 0)]!;
    const names = await this.names(q.area_id, q.split, keys);
    const series = keys
      .map((key, i) => ({ key, stat: range(i + 1, allWallS) }))
      .filter((s): s is { key: string; stat: HashrateStat } => s.stat !== null)
      .map((s) => ({ key: s.key, name: names.get(s.key) ?? '', ...s.stat }))
      .sort((a, b) => (b.hashrate ?? 0) - (a.hashrate ?? 0) || a.key.localeCompare(b.key));
    return {
      bucket: q.bucket,
      split: q.split,
      time_zone: zone,
      from,
      to,
      kpi: range(0, allWallS) ?? empty,
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
