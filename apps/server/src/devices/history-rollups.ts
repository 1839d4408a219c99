import { type Kysely, sql, type Transaction } from 'kysely';
import { inIdRanges } from '../db/id-ranges.js';
import type { DB } from '../db/schema.js';
import { fboxRollupMetrics, minerRollupMetrics, tankRollupMetrics } from './rollup-metrics.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;

interface Series {
  raw: 'miner_samples' | 'fbox_samples' | 'tank_samples';
  id: 'miner_id' | 'fbox_id' | 'tank_id';
  /** Raw columns rolled up; the rollup has `<metric>_avg/_min/_max`. */
  metrics: readonly string[];
  /**
   * The devices' table, when the minute rollup goes through them a number at a time (miners: a
   * mine's minute is hundreds of thousands of samples).
   */
  devices?: 'miners';
}

const series: Series[] = [
  { raw: 'miner_samples', id: 'miner_id', metrics: minerRollupMetrics, devices: 'miners' },
  { raw: 'fbox_samples', id: 'fbox_id', metrics: fboxRollupMetrics },
  { raw: 'tank_samples', id: 'tank_id', metrics: tankRollupMetrics },
];

/** Late samples (a gateway catching up) within this margin still land in their bucket. */
const overlap = 5 * minute;

const floorTo = (ms: number, size: number) => ms - (ms % size);

/** Where to start: just before the newest bucket already rolled up, at most `maxBack` ago. */
const windowStart = async (db: Kysely<DB>, table: string, to: number, size: number, maxBack: number) => {
  const { rows } = await sql<{
    last: number | string | null;
  }>`select max(bucket_ts) as last from ${sql.table(table)}`.execute(db);
  const last = rows[0]?.last == null ? null : Number(rows[0].last);
  const earliest = to - maxBack;
  if (last === null) return earliest;
  return Math.max(earliest, Math.min(floorTo(last - overlap, size), to - size));
};

const upsertSet = (metrics: readonly string[]) =>
  ['samples', ...metrics.flatMap((m) => [`${m}_avg`, `${m}_min`, `${m}_max`])]
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');

const columns = (metrics: readonly string[]) =>
  metrics.flatMap((m) => [`${m}_avg`, `${m}_min`, `${m}_max`]).join(', ');

/**
 * Miners per statement of the minute rollup (six minutes of samples each, 12 a miner): 5,000 held
 * the event loop ~110 ms on SQLite (100,000 miners, `bench/jobs-late-hour.mjs`).
 */
const minersPerStatement = 2500;
/**
 * Miners per statement of the hour rollup: an hour is 60 minute rows a miner, so 5,000 miners held
 * the event loop ~250 ms on SQLite at the end of an hour (`bench/jobs-late-hour.mjs`).
 */
const minersPerHourStatement = 1000;

/** A rollup's statement without its rows: `insert … select …` and ` group by … on conflict …`. */
interface RollupStatement {
  head: string;
  tail: string;
  /** The source table (aliased `r`) and its time column. */
  source: string;
  time: string;
}

/**
 * Runs a rollup over `[from, to)`. A series without devices is one statement over the window. A
 * series with devices (miners) goes `perStatement` devices at a time, each joined to its rows of the
 * window (a seek in `(miner_id, time)`), with a turn of the event loop between statements: the
 * whole mine's window in one statement held the loop 1.5 s every minute at 100,000 miners.
 */
const rollupWindow = async (
  db: Kysely<DB> | Transaction<DB>,
  s: Series,
  q: RollupStatement,
  from: number,
  to: number,
  perStatement: number,
): Promise<void> => {
  const window = sql`${sql.raw(`r.${q.time} >= `)}${from}${sql.raw(` and r.${q.time} < `)}${to}`;
  if (!s.devices) {
    await sql`${sql.raw(`${q.head} from ${q.source} r where `)}${window}${sql.raw(q.tail)}`.execute(db);
    return;
  }
  // CROSS JOIN keeps the devices the outer loop on SQLite (one seek each); with a plain join the
  // planner may walk the window's rows by time for every range instead.
  await inIdRanges(db, s.devices, 'id', perStatement, (lo, hi) =>
    sql`${sql.raw(`${q.head} from ${s.devices} d cross join ${q.source} r where r.${s.id} = d.id and `)}${window}${sql.raw(' and d.id >= ')}${lo}${sql.raw(' and d.id < ')}${hi}${sql.raw(q.tail)}`.execute(
      db,
    ),
  );
};

/**
 * 1-minute rollups from raw samples, for complete minutes only. Recomputes whole buckets from raw,
 * so running twice (or in two processes after a lease takeover) gives the same rows. -999 ("no
 * data") is left out of the aggregates; a bucket with no data at all stores -999. Miners go 5,000
 * at a time (`perStatement`; see `rollupWindow`).
 */
export const rollupMinutes = async (
  db: Kysely<DB>,
  now: number,
  retentionRawMs: number,
  perStatement = minersPerStatement,
): Promise<void> => {
  const to = floorTo(now, minute);
  for (const s of series) {
    const target = `${s.raw}_1m`;
    const from = await windowStart(db, target, to, minute, retentionRawMs);
    const aggregates = s.metrics
      .map((m) => {
        const v = `nullif(r.${m}, -999)`;
        return `coalesce(avg(${v}), -999), coalesce(min(${v}), -999), coalesce(max(${v}), -999)`;
      })
      .join(', ');
    const statement = {
      head: `insert into ${target} (${s.id}, bucket_ts, samples, ${columns(s.metrics)}) select r.${s.id}, r.ts - (r.ts % ${minute}), count(*), ${aggregates}`,
      tail: ` group by 1, 2 on conflict (${s.id}, bucket_ts) do update set ${upsertSet(s.metrics)}`,
      source: s.raw,
      time: 'ts',
    };
    await rollupWindow(db, s, statement, from, to, perStatement);
  }
};

/**
 * Told that a series' hourly rows from `from` on were rewritten (what keeps sums of them up to date:
 * the power statistics' settled days): in the rollup's transaction, or for the miners' rows, which
 * are written a number of miners at a time, in a transaction right after them.
 */
export type HoursRewritten = (
  trx: Transaction<DB>,
  table: 'miner_samples_1h' | 'fbox_samples_1h' | 'tank_samples_1h',
  from: number,
) => Promise<void>;

/**
 * 1-hour rollups from the 1-minute ones (sample-weighted averages), then miners' 24-hour hashrate,
 * both a number of miners at a time (`perStatement`) with turns of the event loop between.
 */
export const rollupHours = async (
  db: Kysely<DB>,
  now: number,
  retention1mMs: number,
  rewritten: readonly HoursRewritten[] = [],
  perStatement = minersPerHourStatement,
): Promise<void> => {
  const to = floorTo(now, hour);
  for (const s of series) {
    const source = `${s.raw}_1m`;
    const target = `${s.raw}_1h`;
    const from = await windowStart(db, target, to, hour, retention1mMs);
    const aggregates = s.metrics
      .map((m) => {
        const avg = `case when r.${m}_avg = -999 then null else r.${m}_avg * r.samples end`;
        const weight = `case when r.${m}_avg = -999 then null else r.samples end`;
        return `coalesce(sum(${avg}) / sum(${weight}), -999), coalesce(min(nullif(r.${m}_min, -999)), -999), coalesce(max(nullif(r.${m}_max, -999)), -999)`;
      })
      .join(', ');
    const statement = {
      head: `insert into ${target} (${s.id}, bucket_ts, samples, ${columns(s.metrics)}) select r.${s.id}, r.bucket_ts - (r.bucket_ts % ${hour}), sum(r.samples), ${aggregates}`,
      tail: ` group by 1, 2 on conflict (${s.id}, bucket_ts) do update set ${upsertSet(s.metrics)}`,
      source,
      time: 'bucket_ts',
    };
    const tell = async (trx: Transaction<DB>) => {
      for (const hook of rewritten) await hook(trx, target as Parameters<HoursRewritten>[1], from);
    };
    if (s.devices) {
      await rollupWindow(db, s, statement, from, to, perStatement);
      if (rewritten.length > 0) await db.transaction().execute(tell);
    } else
      await db.transaction().execute(async (trx) => {
        await rollupWindow(trx, s, statement, from, to, perStatement);
        await tell(trx);
      });
  }
  // 24-hour hashrate = mean of the last 24 hourly averages; miners without any keep their value.
  await inIdRanges(db, 'miner_info', 'miner_id', perStatement, (lo, hi) =>
    sql`update miner_info set hashrate_24h = coalesce((select avg(h.hashrate_avg) from miner_samples_1h h where h.miner_id = miner_info.miner_id and h.bucket_ts >= ${now - day} and h.hashrate_avg <> -999), hashrate_24h) where miner_id >= ${lo} and miner_id < ${hi}`.execute(
      db,
    ),
  );
};

export interface Retention {
  rawHours: number;
  rollup1mDays: number;
  rollup1hDays: number;
}

/** Deletes rows older than `cutoff` an hour of data at a time, so no statement holds locks for long. */
const prune = async (db: Kysely<DB>, table: string, column: string, cutoff: number): Promise<number> => {
  const { rows } = await sql<{
    first: number | string | null;
  }>`select min(${sql.ref(column)}) as first from ${sql.table(table)}`.execute(db);
  if (rows[0]?.first == null) return 0;
  let deleted = 0;
  const first = Number(rows[0].first);
  const step = Math.max(hour, Math.ceil((cutoff - first) / 200));
  for (let t = first + step; ; t += step) {
    const end = Math.min(t, cutoff);
    const r = await sql`delete from ${sql.table(table)} where ${sql.ref(column)} < ${end}`.execute(db);
    deleted += Number(r.numAffectedRows ?? 0);
    if (end >= cutoff) return deleted;
  }
};

/** Applies the retention policy; returns deleted rows per table. */
export const applyRetention = async (
  db: Kysely<DB>,
  now: number,
  policy: Retention,
): Promise<Record<string, number>> => {
  const raw = policy.rawHours * hour;
  const boxRaw = Math.max(raw, 7 * day);
  const plan: [string, string, number][] = [
    ['miner_samples', 'ts', now - raw],
    ['fbox_samples', 'ts', now - boxRaw],
    ['tank_samples', 'ts', now - boxRaw],
    ...series.flatMap((s): [string, string, number][] => [
      [`${s.raw}_1m`, 'bucket_ts', now - policy.rollup1mDays * day],
      [`${s.raw}_1h`, 'bucket_ts', now - policy.rollup1hDays * day],
    ]),
  ];
  const deleted: Record<string, number> = {};
  for (const [table, column, cutoff] of plan) deleted[table] = await prune(db, table, column, cutoff);
  return deleted;
};
