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
import { JsonText } from '../../lib/json-text.js';
import type { AreaService } from '../area/area.service.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { UserRepository } from '../user/user.repository.js';
import { HashrateRepository, type StoredDay, SumsGrid } from './hashrate.repository.js';

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

/** The overview as sent: its rows may be JSON text (settled days are stored as text). */
export type HashrateOverviewAnswer = Omit<HashrateOverview, 'rows' | 'totals'> & {
  rows: HashrateOverview['rows'] | JsonText<HashrateOverview['rows']>;
  totals: HashrateOverview['totals'] | JsonText<HashrateOverview['totals']>;
};

/** Running totals at the range's edges (for the series), the mine's rows and the split's rows. */
interface Table {
  totals: SumsGrid;
  totalRows: HashrateOverviewAnswer['totals'];
  rows: HashrateOverviewAnswer['rows'];
}

/** The edges of these days (their starts and ends), sorted, each once. */
const dayEdges = (days: readonly number[]): number[] =>
  [...new Set(days.flatMap((d) => [d, d + day]))].sort((a, b) => a - b);

/**
 * Per bucket `starts[j]`, the statistic of each series `i` of `series` (0: the whole mine) from its
 * cell at point `after(j)` less the one at `before(j)` (-1: the cell holds the bucket's own sums),
 * handed to `add` where there is one. Averages are over the mine's wall time.
 */
const eachStat = (
  grid: SumsGrid,
  series: readonly number[],
  starts: readonly number[],
  before: (j: number) => number,
  after: (j: number) => number,
  add: (stat: HashrateStat, ts: number, i: number) => void,
): void => {
  const v = grid.values;
  starts.forEach((ts, j) => {
    const a = before(j);
    const b = after(j);
    const wallS = a < 0 ? v[grid.cell(0, b)]! : v[grid.cell(0, b)]! - v[grid.cell(0, a)]!;
    for (const i of series) {
      const stat = cellStat(v, grid.cell(i, b), a < 0 ? -1 : grid.cell(i, a), wallS);
      if (stat) add(stat, ts, i);
    }
  });
};

/** The whole mine's statistic per bucket (see `eachStat`). */
const totalsOf = (
  grid: SumsGrid,
  starts: readonly number[],
  before: (j: number) => number,
  after: (j: number) => number,
): HashrateOverview['totals'] => {
  const out: HashrateOverview['totals'] = [];
  eachStat(grid, [0], starts, before, after, (stat, ts) => out.push({ bucket_ts: ts, ...stat }));
  return out;
};

/** Each series' rows per bucket (see `eachStat`), in bucket then key order. */
const rowsOf = (
  grid: SumsGrid,
  pairs: readonly [string, string][],
  starts: readonly number[],
  before: (j: number) => number,
  after: (j: number) => number,
): HashrateOverview['rows'] => {
  const rows: HashrateOverview['rows'] = [];
  const series = pairs.map((_, i) => i).slice(1);
  eachStat(grid, series, starts, before, after, (stat, ts, i) => {
    // The row is the stat with its bucket and key added: no second object per row.
    const row = stat as HashrateOverview['rows'][number];
    row.bucket_ts = ts;
    row.key = pairs[i]![1];
    rows.push(row);
  });
  return rows;
};

/** Days' rows from running totals at (at least) their edges, as JSON text per day ('' when none). */
const dayRowsText = (
  grid: SumsGrid,
  pairs: readonly [string, string][],
  days: readonly number[],
): Map<number, string> =>
  new Map(
    days.map((d) => [
      d,
      JSON.stringify(
        rowsOf(
          grid,
          pairs,
          [d],
          () => grid.index(d),
          () => grid.index(d + day),
        ),
      ).slice(1, -1),
    ]),
  );

/** The rows and the mine's totals of the hours in `[from, to)`, from the hourly rows, as JSON text without brackets. */
const hoursText = async (
  repo: HashrateRepository,
  areaId: number,
  split: string,
  pairs: readonly [string, string][],
  from: number,
  to: number,
): Promise<{ rows: string; totals: string }> => {
  const starts: number[] = [];
  for (let h = from; h < to; h += hour) starts.push(h);
  const grid = new SumsGrid(pairs, starts);
  grid.add(await repo.hours(areaId, split, from, to));
  const own = () => -1;
  const at = (j: number) => j;
  return {
    rows: JSON.stringify(rowsOf(grid, pairs, starts, own, at)).slice(1, -1),
    totals: JSON.stringify(totalsOf(grid, starts, own, at)).slice(1, -1),
  };
};

/**
 * Hashrate overview of a mine (docs/statistics.md, "Hashrate overview"): read from the hourly
 * per-split rollups' running totals, so a range costs a few index look-ups per series and bucket
 * edge whatever its length and the mine's size.
 */
export class HashrateService {
  private readonly repo: HashrateRepository;

  constructor(
    private readonly deps: { db: Kysely<DB>; dialect: Dialect; areas: AreaService; clock: () => number },
  ) {
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

  async overview(user: AreaCaller, q: HashrateOverviewQuery): Promise<HashrateOverviewAnswer> {
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
    const { totals, totalRows, rows } =
      q.bucket === 'day' ? await this.byDay(q, pairs, from, to) : await this.byHour(q, pairs, from, to);
    const first = totals.index(from);
    const last = totals.index(to);
    const range = (i: number, wallS: number) =>
      cellStat(totals.values, totals.cell(i, last), totals.cell(i, first), wallS);
    const allWallS = totals.values[totals.cell(0, last)]! - totals.values[totals.cell(0, first)]!;
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

  /**
   * Day buckets: settled days' rows are stored as text (computed once); the mine's total per day,
   * the series over the range and the other days come from the running totals at the day edges.
   */
  private async byDay(
    q: HashrateOverviewQuery,
    pairs: [string, string][],
    from: number,
    to: number,
  ): Promise<Table> {
    const days: number[] = [];
    for (let d = from; d < to; d += day) days.push(d);
    const edges = [...days, to];
    const settledBefore = Math.floor(this.deps.clock() / hour) * hour - 3 * hour;
    const settled = days.filter((d) => d + day <= settledBefore);
    let stored = await this.repo.storedDays(q.area_id, q.split, 'day', settled);
    const missing = settled.filter((d) => !stored.has(d));
    if (missing.length > 0) {
      await this.repo.fillDays(q.area_id, async (repo) => {
        const texts = dayRowsText(await repo.totalsAt(q.area_id, pairs, dayEdges(missing)), pairs, missing);
        return missing.map((d) => ({
          dim: q.split,
          bucket: 'day' as const,
          day_ts: d,
          rows_json: texts.get(d)!,
        }));
      });
      stored = await this.repo.storedDays(q.area_id, q.split, 'day', settled);
    }
    const open = days.filter((d) => !stored.has(d));
    const [all, split] = await Promise.all([
      this.repo.totalsAt(q.area_id, [['all', '']], edges),
      this.repo.totalsAt(
        q.area_id,
        pairs,
        [...new Set([from, to, ...dayEdges(open)])].sort((a, b) => a - b),
      ),
    ]);
    const live = dayRowsText(split, pairs, open);
    const text = days.map((d) => stored.get(d) ?? live.get(d) ?? '');
    return {
      totals: split,
      totalRows: totalsOf(
        all,
        days,
        (j) => j,
        (j) => j + 1,
      ),
      rows: JsonText.array(text),
    };
  }

  /**
   * Hour buckets: settled whole UTC days inside the range keep their hours' rows and the mine's
   * hours as text; the rest of the range is read hour by hour.
   */
  private async byHour(
    q: HashrateOverviewQuery,
    pairs: [string, string][],
    from: number,
    to: number,
  ): Promise<Table> {
    const settledBefore = Math.floor(this.deps.clock() / hour) * hour - 3 * hour;
    const days: number[] = [];
    for (let d = Math.ceil(from / day) * day; d + day <= Math.min(to, settledBefore); d += day) days.push(d);
    const stored = () =>
      Promise.all([
        this.repo.storedDays(q.area_id, q.split, 'hour', days),
        this.repo.storedDays(q.area_id, 'all', 'hour', days),
      ]);
    let [dayRows, dayTotals] = await stored();
    const missing = days.filter((d) => !dayRows.has(d) || !dayTotals.has(d));
    if (missing.length > 0) {
      await this.repo.fillDays(q.area_id, async (repo) => {
        const out: StoredDay[] = [];
        for (const d of missing) {
          const text = await hoursText(repo, q.area_id, q.split, pairs, d, d + day);
          out.push(
            { dim: q.split, bucket: 'hour', day_ts: d, rows_json: text.rows },
            { dim: 'all', bucket: 'hour', day_ts: d, rows_json: text.totals },
          );
        }
        return out;
      });
      [dayRows, dayTotals] = await stored();
    }
    // The range as stored days and the spans between them, in order.
    const parts: { rows: string; totals: string }[] = [];
    let at = from;
    for (const d of [...days.filter((d) => dayRows.has(d) && dayTotals.has(d)), to]) {
      if (d > at) parts.push(await hoursText(this.repo, q.area_id, q.split, pairs, at, d));
      if (d < to) parts.push({ rows: dayRows.get(d)!, totals: dayTotals.get(d)! });
      at = d + day;
    }
    return {
      totals: await this.repo.totalsAt(q.area_id, pairs, [from, to]),
      totalRows: JsonText.array(parts.map((p) => p.totals)),
      rows: JsonText.array(parts.map((p) => p.rows)),
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
