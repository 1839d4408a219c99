import { type Kysely, sql } from 'kysely';
import { integerLiteral as lit } from '../../db/literal.js';
import type { DB } from '../../db/schema.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Late samples (a gateway catching up) within this margin still land in their hour. */
const overlap = 5 * minute;

const sums = ['cover_s', 'reach_s', 'hash_s', 'hashrate_s', 'theo_s'] as const;
const fleetSums = ['wall_s', 'miners', 'online_miners', ...sums] as const;

/** Miners (by id) whose hour is rolled up in one transaction (~0.25 s each at 100,000 miners on SQLite). */
const minersPerChunk = 5000;

/**
 * The sums for hour `h` (until `end`) of the miners with ids in `[lo, hi)`, from raw samples, with
 * running totals.
 */
const minerHour = (h: number, end: number, lo: number, hi: number) => {
  const H = lit(h);
  const E = lit(end);
  const ids = (column: string) => `${column} >= ${lit(lo)} and ${column} < ${lit(hi)}`;
  const least = (a: string, b: string) => `case when ${a} > ${b} then ${b} else ${a} end`;
  return `insert into miner_hashrate_1h (miner_id, hour_ts, area_id, fbox_id, model, online, ${sums.join(', ')}, ${sums.map((c) => `cum_${c}`).join(', ')})
select x.miner_id, ${H}, x.area_id, x.fbox_id, x.model, x.online, ${sums.map((c) => `x.${c}`).join(', ')}, ${sums.map((c) => `coalesce(p.cum_${c}, 0) + x.${c}`).join(', ')}
from (
  select b.miner_id, b.area_id, b.fbox_id, b.model, case when b.n_online > 0 then 1 else 0 end as online, b.cover_s,
    ${least('b.n_online * b.iv', 'b.cover_s')} as reach_s,
    ${least('b.n_hash * b.iv', 'b.cover_s')} as hash_s,
    coalesce(b.avg_h, 0) * ${least('b.n_online * b.iv', 'b.cover_s')} as hashrate_s,
    b.theo * b.cover_s as theo_s
  from (
    select m.id as miner_id, s.area_id, s.fbox_id, s.model, f.reporting_interval_s * 1.0 as iv,
      (${E} - case when m.created_at > ${H} then m.created_at else ${H} end) / 1000.0 as cover_s,
      coalesce(r.n_online, 0) as n_online, coalesce(r.n_hash, 0) as n_hash, r.avg_h,
      case when s.hashrate_theoretical > 0 then s.hashrate_theoretical else 0 end as theo
    from miners m
    join miner_state s on s.miner_id = m.id
    join fboxes f on f.id = s.fbox_id
    left join (
      select miner_id,
        sum(case when online = 1 then 1 else 0 end) as n_online,
        sum(case when online = 1 and hashrate > 0 then 1 else 0 end) as n_hash,
        avg(case when online = 1 and hashrate >= 0 then hashrate end) as avg_h
      from miner_samples where ${ids('miner_id')} and ts >= ${H} and ts < ${E} group by miner_id
    ) r on r.miner_id = m.id
    where ${ids('m.id')} and m.created_at < ${E}
  ) b
) x
left join miner_hashrate_1h p on p.miner_id = x.miner_id and p.hour_ts = (
  select max(q.hour_ts) from miner_hashrate_1h q where q.miner_id = x.miner_id and q.hour_ts < ${H})
where true
on conflict (miner_id, hour_ts) do update set area_id = excluded.area_id, fbox_id = excluded.fbox_id, model = excluded.model, online = excluded.online, ${[
    ...sums,
    ...sums.map((c) => `cum_${c}`),
  ]
    .map((c) => `${c} = excluded.${c}`)
    .join(', ')}`;
};

/** The mine's sums for hour `h` per split and key, from the miners' rows, with running totals. */
const fleetHour = (h: number, end: number) => {
  const H = lit(h);
  const W = lit(Math.round((end - h) / 1000));
  const agg = `count(*) as miners, sum(h.online) as online_miners, ${sums.map((c) => `sum(h.${c}) as ${c}`).join(', ')}`;
  const from = `from miner_hashrate_1h h where h.hour_ts = ${H}`;
  return `insert into fleet_hashrate_1h (area_id, dim, key, hour_ts, ${fleetSums.join(', ')}, ${fleetSums.map((c) => `cum_${c}`).join(', ')})
select g.area_id, g.dim, g.key, ${H}, ${W}, g.miners, g.online_miners, ${sums.map((c) => `g.${c}`).join(', ')},
  coalesce(p.cum_wall_s, 0) + ${W}, ${['miners', 'online_miners', ...sums].map((c) => `coalesce(p.cum_${c}, 0) + g.${c}`).join(', ')}
from (
  select h.area_id, 'all' as dim, '' as key, ${agg} ${from} group by h.area_id
  union all
  select h.area_id, 'fbox' as dim, cast(h.fbox_id as varchar(64)) as key, ${agg} ${from} group by h.area_id, h.fbox_id
  union all
  select h.area_id, 'model' as dim, h.model as key, ${agg} ${from} group by h.area_id, h.model
  union all
  select h.area_id, 'group' as dim, cast(gm.group_id as varchar(64)) as key, ${agg}
    from miner_hashrate_1h h join miner_group_members gm on gm.miner_id = h.miner_id
    where h.hour_ts = ${H} group by h.area_id, gm.group_id
  union all
  select h.area_id, 'group' as dim, '0' as key, ${agg} ${from}
    and not exists (select 1 from miner_group_members gm where gm.miner_id = h.miner_id) group by h.area_id
) g
left join fleet_hashrate_1h p on p.area_id = g.area_id and p.dim = g.dim and p.key = g.key and p.hour_ts = (
  select max(q.hour_ts) from fleet_hashrate_1h q
  where q.area_id = g.area_id and q.dim = g.dim and q.key = g.key and q.hour_ts < ${H})`;
};

/**
 * Hashrate overview rollup (docs/statistics.md): for each hour from the one the last run stopped
 * in (less 5 minutes for late samples) until now, recomputes every miner's sums from its raw
 * samples, 5,000 miners per transaction (an hour of 100,000 miners' samples took ~24 s on SQLite:
 * in one transaction that kept ingest waiting as long), then the mine's sums per split and key in
 * one more. The current hour is rolled up as far as it goes and again by the next run. Idempotent:
 * rerunning gives the same rows; a run stopped between transactions is redone by the next, since
 * the mine's rows of the hour, which say where to resume, are written last.
 */
export const rollupHashrate = async (
  db: Kysely<DB>,
  now: number,
  maxBackMs: number,
  minersPerTransaction = minersPerChunk,
): Promise<number[]> => {
  const to = now - (now % minute);
  const { rows } = await sql<{
    hour_ts: number | string;
    wall_s: number | string;
  }>`select hour_ts, wall_s from fleet_hashrate_1h where dim = 'all' order by hour_ts desc limit 1`.execute(
    db,
  );
  const last = rows[0] ? Number(rows[0].hour_ts) + Number(rows[0].wall_s) * 1000 : null;
  const earliest = to - maxBackMs;
  let from = last === null ? earliest : Math.max(earliest, last - overlap);
  from -= from % hour;
  const { rows: bounds } = await sql<{
    lo: number | string | null;
    hi: number | string | null;
  }>`select min(id) as lo, max(id) as hi from miners`.execute(db);
  const lo = Number(bounds[0]?.lo ?? 0);
  const hi = Number(bounds[0]?.hi ?? -1) + 1;
  const done: number[] = [];
  for (let h = from; h < to; h += hour) {
    const end = Math.min(h + hour, to);
    for (let first = lo; first < hi; first += minersPerTransaction)
      await db
        .transaction()
        .execute((trx) => sql.raw(minerHour(h, end, first, first + minersPerTransaction)).execute(trx));
    await db.transaction().execute(async (trx) => {
      // The settled days holding this hour or after it (their totals change) are forgotten first.
      await sql`delete from fleet_hashrate_days where day_ts > ${sql.raw(lit(h - day))}`.execute(trx);
      await sql`delete from fleet_hashrate_1h where hour_ts = ${sql.raw(lit(h))}`.execute(trx);
      await sql.raw(fleetHour(h, end)).execute(trx);
      await sql`insert into fleet_hashrate_keys (area_id, dim, key) select distinct area_id, dim, key from fleet_hashrate_1h where hour_ts = ${sql.raw(lit(h))} on conflict (area_id, dim, key) do nothing`.execute(
        trx,
      );
    });
    done.push(h);
  }
  return done;
};

/** Deletes the overview's hourly rows older than the hourly rollups' retention. */
export const pruneHashrate = async (db: Kysely<DB>, now: number, retentionDays: number): Promise<void> => {
  const cutoff = lit(now - retentionDays * day);
  await sql`delete from miner_hashrate_1h where hour_ts < ${sql.raw(cutoff)}`.execute(db);
  await sql`delete from fleet_hashrate_1h where hour_ts < ${sql.raw(cutoff)}`.execute(db);
  await sql`delete from fleet_hashrate_days where day_ts < ${sql.raw(cutoff)}`.execute(db);
};
