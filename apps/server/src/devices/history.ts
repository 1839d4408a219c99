import { limits } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';

/** A device family's history tables: raw samples and the 1-minute / 1-hour rollups. */
export interface SeriesTables<M extends string> {
  raw: keyof DB & string;
  m1: keyof DB & string;
  h1: keyof DB & string;
  idColumn: string;
  /** Metric name → raw column; rollups hold `<column>_avg` and `samples`. */
  metrics: Record<M, string>;
}

export type Source = 'raw' | '1m' | '1h';

/** Averages of one device in one bucket; null when the bucket holds no reading. */
export type Bucket<M extends string> = { id: number; ts: number } & Record<M, number | null>;

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** How far back each store holds data (the retention policy). */
export interface Retention {
  now: number;
  rawMs: number;
  m1Ms: number;
}

/**
 * Which store answers: the finest one the interval needs (30 s → raw samples, up to 30 min → 1-minute
 * rollups, else 1-hour rollups), moved to a coarser one when the range starts before that store's
 * retention.
 */
export const sourceFor = (intervalMs: number, from: number, retention?: Retention): Source => {
  let source: Source = intervalMs < MINUTE ? 'raw' : intervalMs < HOUR ? '1m' : '1h';
  if (retention && source === 'raw' && from < retention.now - retention.rawMs) source = '1m';
  if (retention && source === '1m' && from < retention.now - retention.m1Ms) source = '1h';
  return source;
};

const stepOf: Record<Source, number> = { raw: 0, '1m': MINUTE, '1h': HOUR };

/**
 * Bucketed averages of the given devices over [from, to). Values of -999 ("no reading") are left
 * out of the averages. Rollups lag behind (the rollup job closes a minute or an hour after it
 * ends), so the tail after the last rollup row comes from the next finer store.
 */
export const readSeries = async <M extends string>(
  db: Kysely<DB>,
  tables: SeriesTables<M>,
  ids: number[],
  intervalMs: number,
  from: number,
  to: number,
  retention?: Retention,
): Promise<{ source: Source; buckets: Bucket<M>[] }> => {
  const source = sourceFor(intervalMs, from, retention);
  const start = Math.floor(from / intervalMs) * intervalMs;
  if (ids.length === 0) return { source, buckets: [] };
  const order: Source[] = ['1h', '1m', 'raw'];
  const merged = new Map<string, Bucket<M> & { weight: number }>();
  let cursor = start;
  for (const store of order.slice(order.indexOf(source))) {
    if (cursor >= to) break;
    const rows = await readStore(db, tables, store, ids, intervalMs, cursor, to);
    for (const row of rows.buckets) merge(merged, row, Object.keys(tables.metrics) as M[]);
    if (store === 'raw' || rows.lastTs === null) continue;
    // The finer store continues after the last rollup row; a bucket split between both is merged.
    cursor = rows.lastTs + stepOf[store];
  }
  const buckets = [...merged.values()]
    .sort((a, b) => a.ts - b.ts || a.id - b.id)
    .map(({ weight: _weight, ...bucket }) => bucket as Bucket<M>);
  return { source, buckets };
};

/** Adds a bucket; one already there for the same device and time is averaged by sample weight. */
const merge = <M extends string>(
  merged: Map<string, Bucket<M> & { weight: number }>,
  row: Bucket<M> & { weight: number },
  metrics: M[],
) => {
  const key = `${row.id}:${row.ts}`;
  const current = merged.get(key);
  if (!current) {
    merged.set(key, row);
    return;
  }
  const total = current.weight + row.weight;
  for (const m of metrics) {
    const a = current[m];
    const b = row[m];
    (current as Record<string, number | null>)[m] =
      a === null ? b : b === null ? a : round((a * current.weight + b * row.weight) / total);
  }
  current.weight = total;
};

const readStore = async <M extends string>(
  db: Kysely<DB>,
  tables: SeriesTables<M>,
  store: Source,
  ids: number[],
  intervalMs: number,
  from: number,
  to: number,
): Promise<{ buckets: (Bucket<M> & { weight: number })[]; lastTs: number | null }> => {
  const table = store === 'raw' ? tables.raw : store === '1m' ? tables.m1 : tables.h1;
  const tsColumn = store === 'raw' ? 'ts' : 'bucket_ts';
  const id = sql.ref(tables.idColumn);
  const ts = sql.ref(tsColumn);
  const bucketMs = sql.lit(intervalMs);
  const noData = sql.lit(limits.noData);
  const metrics = (Object.entries(tables.metrics) as [M, string][]).map(([name, column]) => {
    const value =
      store === 'raw'
        ? sql`avg(case when ${sql.ref(column)} <> ${noData} then ${sql.ref(column)} end)`
        : sql`sum(case when ${sql.ref(`${column}_avg`)} <> ${noData} then ${sql.ref(`${column}_avg`)} * samples end) /
              nullif(sum(case when ${sql.ref(`${column}_avg`)} <> ${noData} then samples end), 0)`;
    return sql`${value} as ${sql.ref(name)}`;
  });
  const weight = store === 'raw' ? sql`count(*)` : sql`sum(samples)`;
  const result = await sql<
    { id: number; ts: number; last_ts: number; weight: number } & Record<M, number | null>
  >`
    select ${id} as id, (${ts} / ${bucketMs}) * ${bucketMs} as ts, max(${ts}) as last_ts, ${weight} as weight,
      ${sql.join(metrics)}
    from ${sql.table(table)}
    where ${id} in (${sql.join(ids)}) and ${ts} >= ${from} and ${ts} < ${to}
    group by ${id}, (${ts} / ${bucketMs})
    order by 2, 1`.execute(db);
  let lastTs: number | null = null;
  const buckets = result.rows.map((row) => {
    const last = Number(row.last_ts);
    if (lastTs === null || last > lastTs) lastTs = last;
    const bucket = { id: Number(row.id), ts: Number(row.ts), weight: Number(row.weight) } as Bucket<M> & {
      weight: number;
    };
    for (const name of Object.keys(tables.metrics) as M[]) {
      const v = row[name];
      (bucket as Record<string, number | null>)[name] = v === null ? null : round(Number(v));
    }
    return bucket;
  });
  return { buckets, lastTs };
};

export const round = (value: number, digits = 3): number => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/**
 * One point per bucket from `from` to `to`, with null where nothing was recorded; values of several
 * devices in a bucket are combined by `combine` (sum for area totals).
 */
export const fillBuckets = <M extends string>(
  buckets: Bucket<M>[],
  metrics: readonly M[],
  intervalMs: number,
  from: number,
  to: number,
): ({ ts: number } & Record<M, number | null>)[] => {
  const byTs = new Map<number, Record<M, number | null>>();
  for (const b of buckets) {
    const current = byTs.get(b.ts);
    if (!current) {
      byTs.set(
        b.ts,
        Object.fromEntries(metrics.map((m) => [m, b[m]])) as unknown as Record<M, number | null>,
      );
      continue;
    }
    for (const m of metrics) {
      const v = b[m];
      if (v !== null) current[m] = round((current[m] ?? 0) + v);
    }
  }
  const points: ({ ts: number } & Record<M, number | null>)[] = [];
  for (let ts = Math.floor(from / intervalMs) * intervalMs; ts < to; ts += intervalMs) {
    const values =
      byTs.get(ts) ?? (Object.fromEntries(metrics.map((m) => [m, null])) as Record<M, number | null>);
    points.push({ ts, ...values });
  }
  return points;
};

/** The window and step of one device's chart, as the history endpoints take them (interval in s). */
export interface HistoryWindow {
  interval: number;
  from: number;
  to: number;
}

/**
 * One device's chart: its `metrics` bucketed to the window's interval, from the store that still
 * holds that range. FBOX, tank and miner histories differ only in tables and metrics.
 */
export const deviceHistory = async <M extends string>(
  db: Kysely<DB>,
  tables: SeriesTables<M>,
  id: number,
  metrics: readonly M[],
  window: HistoryWindow,
  retention?: Retention,
) => {
  const intervalMs = window.interval * 1000;
  const { source, buckets } = await readSeries(
    db,
    tables,
    [id],
    intervalMs,
    window.from,
    window.to,
    retention,
  );
  const points = fillBuckets(buckets, metrics, intervalMs, window.from, window.to);
  return { interval: window.interval, from: window.from, to: window.to, source, points };
};

/** The history retention of the configuration, as `readSeries` takes it. */
export const retentionOf = (deps: Pick<FastifyInstance, 'clock' | 'config'>): Retention => ({
  now: deps.clock(),
  rawMs: deps.config.retentionRawHours * 3_600_000,
  m1Ms: deps.config.retention1mDays * 86_400_000,
});
