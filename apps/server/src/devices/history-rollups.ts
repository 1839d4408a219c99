import { type Kysely, sql, type Transaction } from 'kysely';
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
}

const series: Series[] = [
  { raw: 'miner_samples', id: 'miner_id', metrics: minerRollupMetrics },
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
 * 1-minute rollups from raw samples, for complete minutes only. Recomputes whole buckets from raw,
 * so running twice (or in two processes after a lease takeover) gives the same rows. -999 ("no
 * data") is left out of the aggregates; a bucket with no data at all stores -999.
 */
export const rollupMinutes = async (db: Kysely<DB>, now: number, retentionRawMs: number): Promise<void> => {
  const to = floorTo(now, minute);
  for (const s of series) {
    const target = `${s.raw}_1m`;
    const from = await windowStart(db, target, to, minute, retentionRawMs);
    const aggregates = s.metrics
      .map((m) => {
        const v = `nullif(${m}, -999)`;
        return `coalesce(avg(${v}), -999), coalesce(min(${v}), -999), coalesce(max(${v}), -999)`;
      })
      .join(', ');
    await sql`${sql.raw(
      `insert into ${target} (${s.id}, bucket_ts, samples, ${columns(s.metrics)}) select ${s.id}, ts - (ts % ${minute}), count(*), ${aggregates} from ${s.raw} where ts >= `,
    )}${from}${sql.raw(' and ts < ')}${to}${sql.raw(
      ` group by 1, 2 on conflict (${s.id}, bucket_ts) do update set ${upsertSet(s.metrics)}`,
    )}`.execute(db);
  }
};

/**
 * Told, in the rollup's transaction, that a series' hourly rows from `from` on were rewritten (what
 * keeps sums of them up to date: the power statistics' settled days).
 */
export type HoursRewritten = (
  trx: Transaction<DB>,
  table: 'miner_samples_1h' | 'fbox_samples_1h' | 'tank_samples_1h',
  from: number,
) => Promise<void>;

/** 1-hour rollups from the 1-minute ones (sample-weighted averages), then miners' 24-hour hashrate. */
export const rollupHours = async (
  db: Kysely<DB>,
  now: number,
  retention1mMs: number,
  rewritten: readonly HoursRewritten[] = [],
): Promise<void> => {
  const to = floorTo(now, hour);
  for (const s of series) {
    const source = `${s.raw}_1m`;
    const target = `${s.raw}_1h`;
    const from = await windowStart(db, target, to, hour, retention1mMs);
    const aggregates = s.metrics
      .map((m) => {
        const avg = `case when ${m}_avg = -999 then null else ${m}_avg * samples end`;
        const weight = `case when ${m}_avg = -999 then null else samples end`;
        return `coalesce(sum(${avg}) / sum(${weight}), -999), coalesce(min(nullif(${m}_min, -999)), -999), coalesce(max(nullif(${m}_max, -999)), -999)`;
      })
      .join(', ');
    const upsert = sql`${sql.raw(
      `insert into ${target} (${s.id}, bucket_ts, samples, ${columns(s.metrics)}) select ${s.id}, bucket_ts - (bucket_ts % ${hour}), sum(samples), ${aggregates} from ${source} where bucket_ts >= `,
    )}${from}${sql.raw(' and bucket_ts < ')}${to}${sql.raw(
      ` group by 1, 2 on conflict (${s.id}, bucket_ts) do update set ${upsertSet(s.metrics)}`,
    )}`;
    if (rewritten.length === 0) await upsert.execute(db);
    else
      await db.transaction().execute(async (trx) => {
        await upsert.execute(trx);
        for (const hook of rewritten) await hook(trx, target as Parameters<HoursRewritten>[1], from);
      });
  }
  // 24-hour hashrate = mean of the last 24 hourly averages; miners without any keep their value.
  await sql`update miner_state set hashrate_24h = coalesce((select avg(h.hashrate_avg) from miner_samples_1h h where h.miner_id = miner_state.miner_id and h.bucket_ts >= ${now - day} and h.hashrate_avg <> -999), hashrate_24h)`.execute(
    db,
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
