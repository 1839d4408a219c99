import { type Kysely, sql } from 'kysely';
import { inIdRanges } from '../../db/id-ranges.js';
import { integerLiteral as lit } from '../../db/literal.js';
import type { DB } from '../../db/schema.js';

const minute = 60_000;
const hour = 60 * minute;
const day = 24 * hour;
/** Late samples (a gateway catching up) within this margin still land in their hour. */
const overlap = 5 * minute;

const sums = ['cover_s', 'reach_s', 'hash_s', 'hashrate_s', 'theo_s'] as const;
const fleetSums = ['wall_s', 'miners', 'online_miners', ...sums] as const;

/**
 * Miners (by id) whose hour is rolled up in one transaction: at the end of an hour, 2,000 held the
 * event loop 94–117 ms on SQLite (100,000 miners, `bench/jobs-late-hour.mjs`).
 */
const minersPerChunk = 1500;

/**
 * The sums for hour `h` (until `end`) of the miners with ids in `[lo, hi)`, from raw samples, with
 * running totals. The samples are joined to each miner (`miner_id = ? and ts in the hour`), so the
 * database seeks each miner's hour in `(miner_id, ts)`: a range of miner ids with a range of times
 * in one condition read every sample the miners had in raw retention (SQLite and PostgreSQL seek
 * on the first column only), 48 hours of them where 1 was wanted.
 */
const minerHour = (h: number, end: number, lo: number, hi: number) => {
  const H = lit(h);
  const E = lit(end);
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
      sum(case when r.online = 1 then 1 else 0 end) as n_online,
      sum(case when r.online = 1 and r.hashrate > 0 then 1 else 0 end) as n_hash,
      avg(case when r.online = 1 and r.hashrate >= 0 then r.hashrate end) as avg_h,
      case when s.hashrate_theoretical > 0 then s.hashrate_theoretical else 0 end as theo
    from miners m
    join miner_info s on s.miner_id = m.id
    join fboxes f on f.id = s.fbox_id
    left join miner_samples r on r.miner_id = m.id and r.ts >= ${H} and r.ts < ${E}
    where m.id >= ${lit(lo)} and m.id < ${lit(hi)} and m.created_at < ${E}
    group by m.id, s.miner_id, f.id
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

/** Miners whose hourly rows are summed per statement into the mine's sums (see `fleetHour`). */
const minersPerFleetPart = 20_000;

/** The columns a part of the mine's sums adds up (the wall time is the hour's, not a sum). */
const partColumns = ['miners', 'online_miners', ...sums] as const;

/**
 * The sums for hour `h` per split and key of the miners with ids in `[lo, hi)`, each miner joined to
 * its row of the hour (a seek in `(miner_id, hour_ts)`).
 */
const fleetPart = (h: number, lo: number, hi: number) => {
  const agg = `count(*) as miners, sum(h.online) as online_miners, ${sums.map((c) => `sum(h.${c}) as ${c}`).join(', ')}`;
  // CROSS JOIN keeps the miners the outer loop on SQLite; joined as equals, it walked the whole
  // hour's rows (the hour_ts index) for every part.
  const joined = 'from miners m cross join miner_hashrate_1h h';
  const where = `where h.miner_id = m.id and h.hour_ts = ${lit(h)} and m.id >= ${lit(lo)} and m.id < ${lit(hi)}`;
  return `select h.area_id, 'all' as dim, '' as key, ${agg} ${joined} ${where} group by h.area_id
union all
select h.area_id, 'fbox' as dim, cast(h.fbox_id as varchar(64)) as key, ${agg} ${joined} ${where} group by h.area_id, h.fbox_id
union all
select h.area_id, 'model' as dim, h.model as key, ${agg} ${joined} ${where} group by h.area_id, h.model
union all
select h.area_id, 'group' as dim, cast(gm.group_id as varchar(64)) as key, ${agg}
  ${joined} join miner_group_members gm on gm.miner_id = h.miner_id ${where} group by h.area_id, gm.group_id
union all
select h.area_id, 'group' as dim, '0' as key, ${agg} ${joined} ${where}
  and not exists (select 1 from miner_group_members gm where gm.miner_id = h.miner_id) group by h.area_id`;
};

type FleetKey = { area_id: number; dim: string; key: string };
const keyOf = (r: FleetKey) => `${r.area_id}\u0000${r.dim}\u0000${r.key}`;

/**
 * The mine's sums for hour `h` per split and key: added up from the miners' rows
 * `minersPerFleetPart` miners at a time, with turns of the event loop between (one statement over a
 * mine of 1,000,000 miners held it 2 s), then written with their running totals in one transaction.
 */
const fleetHour = async (db: Kysely<DB>, h: number, end: number, minersPerPart: number): Promise<void> => {
  const parts = new Map<string, FleetKey & { values: number[] }>();
  await inIdRanges(db, 'miners', 'id', minersPerPart, async (lo, hi) => {
    const { rows } = await sql
      .raw<FleetKey & Record<string, number | string>>(fleetPart(h, lo, hi))
      .execute(db);
    for (const r of rows) {
      const k = keyOf(r);
      let part = parts.get(k);
      if (!part) {
        part = { area_id: Number(r.area_id), dim: r.dim, key: r.key, values: partColumns.map(() => 0) };
        parts.set(k, part);
      }
      for (let c = 0; c < partColumns.length; c++) part.values[c]! += Number(r[partColumns[c]!]);
    }
  });
  const wall = Math.round((end - h) / 1000);
  await db.transaction().execute(async (trx) => {
    // The settled days holding this hour or after it (their totals change) are forgotten first.
    await sql`delete from fleet_hashrate_days where day_ts > ${sql.raw(lit(h - day))}`.execute(trx);
    await sql`delete from fleet_hashrate_1h where hour_ts = ${sql.raw(lit(h))}`.execute(trx);
    if (parts.size === 0) return;
    const areas = [...new Set([...parts.values()].map((p) => p.area_id))];
    // Each key's running totals as of its last hour before this one.
    const { rows: previous } = await sql<FleetKey & Record<string, number>>`
      select p.area_id, p.dim, p.key, ${sql.raw(fleetSums.map((c) => `p.cum_${c}`).join(', '))}
      from fleet_hashrate_keys k join fleet_hashrate_1h p on p.area_id = k.area_id and p.dim = k.dim and p.key = k.key
      and p.hour_ts = (select max(q.hour_ts) from fleet_hashrate_1h q
        where q.area_id = k.area_id and q.dim = k.dim and q.key = k.key and q.hour_ts < ${sql.raw(lit(h))})
      where k.area_id in (${sql.join(areas)})`.execute(trx);
    const before = new Map(previous.map((r) => [keyOf(r), r]));
    const rows = [...parts.values()].map((part) => {
      const prev = before.get(keyOf(part));
      const values: Record<string, number> = { wall_s: wall };
      partColumns.forEach((c, n) => {
        values[c] = part.values[n]!;
      });
      const row: Record<string, number | string> = {
        area_id: part.area_id,
        dim: part.dim,
        key: part.key,
        hour_ts: h,
      };
      for (const c of fleetSums) {
        row[c] = values[c]!;
        row[`cum_${c}`] = Number(prev?.[`cum_${c}`] ?? 0) + values[c]!;
      }
      return row;
    });
    for (let i = 0; i < rows.length; i += 500)
      await trx
        .insertInto('fleet_hashrate_1h')
        .values(rows.slice(i, i + 500) as never)
        .execute();
    await sql`insert into fleet_hashrate_keys (area_id, dim, key) select distinct area_id, dim, key from fleet_hashrate_1h where hour_ts = ${sql.raw(lit(h))} on conflict (area_id, dim, key) do nothing`.execute(
      trx,
    );
  });
};

/**
 * Hashrate overview rollup (docs/statistics.md): for each hour from the one the last run stopped
 * in (less 5 minutes for late samples) until now, recomputes every miner's sums from its raw
 * samples, 2,000 miners per transaction (an hour of 100,000 miners' samples took ~24 s on SQLite:
 * in one transaction that kept ingest waiting as long), then the mine's sums per split and key,
 * added up 20,000 miners at a time and written in one more (see `fleetHour`). The current hour is
 * rolled up as far as it goes and again by the next run, every minute. Idempotent:
 * rerunning gives the same rows; a run stopped between transactions is redone by the next, since
 * the mine's rows of the hour, which say where to resume, are written last.
 */
export const rollupHashrate = async (
  db: Kysely<DB>,
  now: number,
  maxBackMs: number,
  minersPerTransaction = minersPerChunk,
  minersPerPart = minersPerFleetPart,
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
  const done: number[] = [];
  for (let h = from; h < to; h += hour) {
    const end = Math.min(h + hour, to);
    // With a turn of the event loop between transactions: the whole hour (4.6 s at 100,000 miners
    // on SQLite) held requests and ingest in one go.
    await inIdRanges(db, 'miners', 'id', minersPerTransaction, (lo, hi) =>
      db.transaction().execute((trx) => sql.raw(minerHour(h, end, lo, hi)).execute(trx)),
    );
    await fleetHour(db, h, end, minersPerPart);
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
