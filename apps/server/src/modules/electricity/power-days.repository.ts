import { createHash } from 'node:crypto';
import { type Kysely, type RawBuilder, sql, type Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { integerLiteral } from '../../db/literal.js';
import type { DB } from '../../db/schema.js';
import type { FboxPowerDaySetsTable } from './meter-energy.schema.js';

/**
 * A stored window as the statistic reads it: each meter's energy (null where the meter counted no
 * reading) and resets, and the box's demand and hashes.
 */
export interface PowerDay {
  fbox_id: number;
  day_ts: number;
  m1_kwh: number | null;
  m1_resets: number;
  m2_kwh: number | null;
  m2_resets: number;
  peak_kw: number | null;
  hashes_th: number | null;
  hash_kwh: number | null;
}

/**
 * One settled day of the statistic's table: its rows as JSON text (without the brackets) and the
 * sums of those rows.
 */
export type PowerDayRows = Omit<FboxPowerDaySetsTable, 'boxes' | 'price' | 'rows_json'> & { text: string };

/**
 * `value` rounded to `digits` decimals as the service rounds (`Math.round(v × 10^d) / 10^d`: half
 * up), in SQL. Both databases print the result as the shortest text that reads back the same
 * number, as JavaScript does (SQLite may add ".0" to a whole number).
 */
const rounded = (value: RawBuilder<unknown>, digits: number) => {
  const scale = sql.lit(10 ** digits);
  return sql`floor(${value} * ${scale} + 0.5) / ${sql.raw(`${10 ** digits}.0`)}`;
};

/** A number as JSON text: its SQL text, `null` for NULL. */
const jsonNumber = (value: RawBuilder<unknown>) => sql`coalesce(cast(${value} as text), 'null')`;

/** A set of boxes' summed power in one hour. */
export interface LoadHour {
  hour_ts: number;
  avg_kw: number | null;
  max_kw: number | null;
}

/** A set of boxes as a key: its size and a digest of its sorted ids. */
export const boxSetKey = (fboxIds: readonly number[]): string =>
  `${fboxIds.length}:${createHash('sha256')
    .update([...fboxIds].sort((a, b) => a - b).join(','))
    .digest('hex')
    .slice(0, 40)}`;

/** A window's figures in `PowerDay`'s order, as PostgreSQL packs them. */
type PowerDayFigures = [
  number,
  number,
  number | null,
  number,
  number | null,
  number,
  number | null,
  number | null,
  number | null,
];
/** Indexed, not destructured: array destructuring runs the iterator protocol, 6,000 times a read. */
const powerDayOf = (f: PowerDayFigures): PowerDay => ({
  fbox_id: f[0],
  day_ts: f[1],
  m1_kwh: f[2],
  m1_resets: f[3],
  m2_kwh: f[4],
  m2_resets: f[5],
  peak_kw: f[6],
  hashes_th: f[7],
  hash_kwh: f[8],
});

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** Boxes per statement (their ids are literals or bound parameters). */
const chunk = 2000;

/**
 * Settled days of the power statistics (migration 0033, docs/statistics.md "Speed"): each FBOX's
 * 24-hour windows summed once from the hourly meter energy and FBOX rollups, read instead of those
 * hours by day and month buckets.
 *
 * Exactness: every writer of the hours forgets, in its own transaction, the windows holding an hour
 * it changed (`forgetHours` from the meter writes, `forgetFrom` from the hourly rollup). A window is
 * filled by one statement from the hours as they stand: on SQLite a statement is atomic; on
 * PostgreSQL the fill takes a lock that waits for writers' transactions in progress and that their
 * forgetting waits for, so a window filled from hours a writer is changing is forgotten after it.
 */
export class PowerDayRepository {
  constructor(
    private readonly db: Kysely<DB> | Transaction<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** Forgets the windows of `fboxId` holding any hour starting in `[from, to]`. */
  async forgetHours(spans: readonly { fboxId: number; from: number; to: number }[]): Promise<void> {
    const byRange = new Map<string, number[]>();
    for (const s of spans) {
      const key = `${s.from}:${s.to}`;
      byRange.set(key, [...(byRange.get(key) ?? []), s.fboxId]);
    }
    for (const [key, ids] of byRange) {
      const [from, to] = key.split(':').map(Number) as [number, number];
      // Sets of boxes are kept by digest: every set's days there go (before the windows: the
      // order readers lock in).
      await this.db
        .deleteFrom('fbox_power_day_sets')
        .where('day_ts', '>', from - dayMs)
        .where('day_ts', '<=', to)
        .execute();
      for (let i = 0; i < ids.length; i += chunk)
        await this.db
          .deleteFrom('fbox_power_days')
          .where('fbox_id', 'in', ids.slice(i, i + chunk))
          .where('day_ts', '>', from - dayMs)
          .where('day_ts', '<=', to)
          .execute();
    }
  }

  /**
   * Forgets every box's windows ending after `from`, and every load hour from `from` on (the FBOX
   * hours from `from` on were rewritten).
   */
  async forgetFrom(from: number): Promise<void> {
    await this.db
      .deleteFrom('fbox_power_day_sets')
      .where('day_ts', '>', from - dayMs)
      .execute();
    await this.db
      .deleteFrom('fbox_power_days')
      .where('day_ts', '>', from - dayMs)
      .execute();
    await this.db.deleteFrom('fbox_load_hours').where('hour_ts', '>=', from).execute();
  }

  /** Forgets windows and load hours starting before `before` (their hourly rollups are past retention). */
  async pruneBefore(before: number): Promise<void> {
    await this.db.deleteFrom('fbox_power_day_sets').where('day_ts', '<', before).execute();
    await this.db.deleteFrom('fbox_power_days').where('day_ts', '<', before).execute();
    await this.db.deleteFrom('fbox_load_hours').where('hour_ts', '<', before).execute();
  }

  /**
   * The boxes' summed hourly power (average and maximum, -999 left out) in `[from, to)`, whole
   * settled hours, filled from the FBOX hours first where not stored yet: one row per hour, nulls
   * where no box had a reading.
   */
  async loadHours(fboxIds: readonly number[], from: number, to: number): Promise<LoadHour[]> {
    if (fboxIds.length === 0 || to <= from) return [];
    const boxes = boxSetKey(fboxIds);
    const read = async () =>
      (
        await this.db
          .selectFrom('fbox_load_hours')
          .select(['hour_ts', 'avg_kw', 'max_kw'])
          .where('boxes', '=', boxes)
          .where('hour_ts', '>=', from)
          .where('hour_ts', '<', to)
          .orderBy('hour_ts')
          .execute()
      ).map((r) => ({
        hour_ts: Number(r.hour_ts),
        avg_kw: r.avg_kw === null ? null : Number(r.avg_kw),
        max_kw: r.max_kw === null ? null : Number(r.max_kw),
      }));
    const rows = await read();
    if (rows.length === (to - from) / hourMs) return rows;
    const hours = sql.raw(
      Array.from({ length: (to - from) / hourMs }, (_, i) => `(${integerLiteral(from + i * hourMs)})`).join(
        ', ',
      ),
    );
    const reading = (column: string) => sql`case when ${sql.ref(column)} >= 0 then ${sql.ref(column)} end`;
    const statement = sql`
      with hours (hour_ts) as (values ${hours}),
      s as (
        select bucket_ts, sum(${reading('power_kw_avg')}) as avg_kw, sum(${reading('power_kw_max')}) as max_kw
        from fbox_samples_1h
        where fbox_id in (${sql.raw(fboxIds.map(integerLiteral).join(', '))})
          and bucket_ts >= ${sql.lit(from)} and bucket_ts < ${sql.lit(to)}
        group by bucket_ts
      )
      insert into fbox_load_hours (boxes, hour_ts, avg_kw, max_kw)
      select ${boxes}, h.hour_ts, s.avg_kw, s.max_kw
      from hours h left join s on s.bucket_ts = h.hour_ts
      where true
      on conflict (boxes, hour_ts) do nothing`;
    await this.atomically('fbox_load_hours', (db) => statement.execute(db));
    return read();
  }

  /**
   * The windows starting at `days` (one phase: all a whole number of days apart) of the boxes,
   * filling those not stored yet from the hours first.
   */
  async days(fboxIds: readonly number[], days: readonly number[]): Promise<PowerDay[]> {
    if (fboxIds.length === 0 || days.length === 0) return [];
    const out: PowerDay[] = [];
    for (let i = 0; i < fboxIds.length; i += chunk) {
      const ids = fboxIds.slice(i, i + chunk);
      let rows = await this.read(ids, days);
      if (rows.length < ids.length * days.length) {
        await this.fillMissing(ids, days, rows);
        rows = await this.read(ids, days);
      }
      out.push(...rows);
    }
    return out;
  }

  /**
   * The statistic's table rows of the windows starting at `days`, per day where a meter counted:
   * the JSON text of the rows (boxes in id order, each costed at its day's price) and the day's
   * sums. A month of a 200-box mine is 30 short reads: each day's rows of a set of boxes are kept
   * as one text at the price they were costed at (`fbox_power_day_sets`), made on the first read
   * from the windows' stored rows (`row_head`), again when the day's price is another
   * (docs/statistics.md "Speed").
   */
  async dayRows(
    fboxIds: readonly number[],
    days: readonly number[],
    priceAt: (day: number) => number,
  ): Promise<PowerDayRows[]> {
    if (fboxIds.length === 0 || days.length === 0) return [];
    const boxes = boxSetKey(fboxIds);
    const read = async () =>
      (
        await this.db
          .selectFrom('fbox_power_day_sets')
          .select([
            'day_ts',
            'price',
            'rows_json',
            'rows',
            'energy_kwh',
            'cost',
            'resets',
            'hashes_th',
            'hash_kwh',
          ])
          .where('boxes', '=', boxes)
          .where('day_ts', 'in', days)
          .execute()
      )
        .filter((r) => Number(r.price) === priceAt(Number(r.day_ts)))
        .map(
          (r): PowerDayRows => ({
            day_ts: Number(r.day_ts),
            text: r.rows_json,
            rows: Number(r.rows),
            energy_kwh: Number(r.energy_kwh),
            cost: Number(r.cost),
            resets: Number(r.resets),
            hashes_th: Number(r.hashes_th),
            hash_kwh: Number(r.hash_kwh),
          }),
        );
    let rows = await read();
    if (rows.length < days.length) {
      const have = new Set(rows.map((r) => r.day_ts));
      const wanted = days.filter((d) => !have.has(d));
      // Made under the lock the windows' forgetting conflicts with: a day whose windows a writer
      // forgets meanwhile is forgotten after it, or made from the writer's committed hours.
      await this.atomically('fbox_power_day_sets', async (db) => {
        const made = await new PowerDayRepository(db, this.dialect).windowRows(fboxIds, wanted, priceAt);
        await db
          .insertInto('fbox_power_day_sets')
          .values(
            made.map((r) => ({
              boxes,
              day_ts: r.day_ts,
              price: priceAt(r.day_ts),
              rows_json: r.text,
              rows: r.rows,
              energy_kwh: r.energy_kwh,
              cost: r.cost,
              resets: r.resets,
              hashes_th: r.hashes_th,
              hash_kwh: r.hash_kwh,
            })),
          )
          .onConflict((c) =>
            c.columns(['boxes', 'day_ts']).doUpdateSet((eb) => ({
              price: eb.ref('excluded.price'),
              rows_json: eb.ref('excluded.rows_json'),
              rows: eb.ref('excluded.rows'),
              energy_kwh: eb.ref('excluded.energy_kwh'),
              cost: eb.ref('excluded.cost'),
              resets: eb.ref('excluded.resets'),
              hashes_th: eb.ref('excluded.hashes_th'),
              hash_kwh: eb.ref('excluded.hash_kwh'),
            })),
          )
          .execute();
      });
      rows = await read();
    }
    return rows.filter((r) => r.rows > 0).sort((a, b) => a.day_ts - b.day_ts);
  }

  /** `dayRows` from the windows' stored rows, filling missing windows first; every day, even empty. */
  private async windowRows(
    fboxIds: readonly number[],
    days: readonly number[],
    priceAt: (day: number) => number,
  ): Promise<PowerDayRows[]> {
    const ids = [...fboxIds].sort((a, b) => a - b);
    const byDay = new Map<number, PowerDayRows>(
      days.map((d) => [
        d,
        { day_ts: d, text: '', rows: 0, energy_kwh: 0, cost: 0, resets: 0, hashes_th: 0, hash_kwh: 0 },
      ]),
    );
    // Chunks in id order: a day's texts join in the boxes' order.
    for (let i = 0; i < ids.length; i += chunk) {
      const part = ids.slice(i, i + chunk);
      let rows = await this.readRows(part, days, priceAt);
      if (rows.reduce((n, r) => n + r.stored, 0) < part.length * days.length) {
        await this.fillMissing(part, days, await this.read(part, days));
        rows = await this.readRows(part, days, priceAt);
      }
      for (const r of rows) {
        if (r.rows === 0) continue;
        const day = byDay.get(r.day_ts)!;
        day.text = day.text === '' ? r.text : `${day.text},${r.text}`;
        day.rows += r.rows;
        day.energy_kwh += r.energy_kwh;
        day.cost += r.cost;
        day.resets += r.resets;
        day.hashes_th += r.hashes_th;
        day.hash_kwh += r.hash_kwh;
      }
    }
    return [...byDay.values()];
  }

  /** Fills the windows of `ids` × `days` missing from `stored`. */
  private async fillMissing(ids: readonly number[], days: readonly number[], stored: readonly PowerDay[]) {
    const have = new Set(stored.map((r) => `${r.fbox_id}:${r.day_ts}`));
    const missing = ids.filter((id) => days.some((d) => !have.has(`${id}:${d}`)));
    const missingDays = days.filter((d) => missing.some((id) => !have.has(`${id}:${d}`)));
    await this.fill(missing, missingDays);
  }

  /** One chunk's `dayRows`, with each day's count of stored windows (counted or not). */
  private async readRows(
    ids: readonly number[],
    days: readonly number[],
    priceAt: (day: number) => number,
  ): Promise<(PowerDayRows & { stored: number })[]> {
    const counted = sql`(m1_readings > 0 or m2_readings > 0)`;
    const energy = sql`(case when m1_readings > 0 then m1_kwh else 0 end + case when m2_readings > 0 then m2_kwh else 0 end)`;
    const prices = sql.join(
      days.map((d) => sql`(${sql.raw(integerLiteral(d))}, cast(${priceAt(d)} as double precision))`),
    );
    const cost = sql`${energy} * p.price`;
    const idList = sql.raw(ids.map(integerLiteral).join(', '));
    const text = sql`row_head || ',"cost":' || ${jsonNumber(rounded(cost, 3))} || '}'`;
    const concat =
      this.dialect === 'postgres'
        ? sql`string_agg(${text}, ',' order by fbox_id)`
        : sql`group_concat(${text}, ',' order by fbox_id)`;
    const { rows } = await sql<{
      day_ts: number | string;
      text: string | null;
      rows: number | string;
      stored: number | string;
      energy_kwh: number | null;
      cost: number | null;
      resets: number | string | null;
      hashes_th: number | null;
      hash_kwh: number | null;
    }>`
      with p (day_ts, price) as (values ${prices})
      select d.day_ts, ${concat} filter (where ${counted}) as text,
        count(*) filter (where ${counted}) as rows, count(*) as stored,
        sum(${energy}) filter (where ${counted}) as energy_kwh,
        sum(${cost}) filter (where ${counted}) as cost,
        sum(m1_resets + m2_resets) filter (where ${counted}) as resets,
        sum(hashes_th) filter (where ${counted}) as hashes_th,
        sum(hash_kwh) filter (where ${counted}) as hash_kwh
      from p join fbox_power_days d on d.day_ts = p.day_ts
      where d.fbox_id in (${idList})
      group by d.day_ts`.execute(this.db);
    return rows.map((r) => ({
      day_ts: Number(r.day_ts),
      text: r.text ?? '',
      rows: Number(r.rows),
      stored: Number(r.stored),
      energy_kwh: Number(r.energy_kwh ?? 0),
      cost: Number(r.cost ?? 0),
      resets: Number(r.resets ?? 0),
      hashes_th: Number(r.hashes_th ?? 0),
      hash_kwh: Number(r.hash_kwh ?? 0),
    }));
  }

  /**
   * The stored windows, only the figures the statistic shows: a 30-day read of a 200-box mine is
   * 6,000 rows, and each value read costs (on SQLite as much as the rest of the row's work).
   * PostgreSQL sends them as one text, a JSON array of arrays: decoding 54,000 fields one by one
   * was two thirds of the statistic's CPU. (`json_agg` builds the same text at twice the cost.)
   */
  private async read(ids: readonly number[], days: readonly number[]): Promise<PowerDay[]> {
    const m1 = sql<number | null>`case when m1_readings > 0 then m1_kwh end`;
    const m2 = sql<number | null>`case when m2_readings > 0 then m2_kwh end`;
    if (this.dialect === 'postgres') {
      const json = (value: RawBuilder<unknown>) => sql`coalesce((${value})::text, 'null')`;
      const { rows } = await sql<{ days: string | null }>`
        select '[[' || string_agg(concat_ws(',', fbox_id, day_ts, ${json(m1)}, m1_resets, ${json(m2)},
          m2_resets, ${json(sql`peak_kw`)}, ${json(sql`hashes_th`)}, ${json(sql`hash_kwh`)}), '],[') || ']]' as days
        from fbox_power_days
        where fbox_id = any(${`{${ids.map(integerLiteral).join(',')}}`}::integer[])
          and day_ts = any(${`{${days.map(integerLiteral).join(',')}}`}::bigint[])`.execute(this.db);
      const packed = JSON.parse(rows[0]?.days ?? 'null') as PowerDayFigures[] | null;
      return (packed ?? []).map(powerDayOf);
    }
    return this.db
      .selectFrom('fbox_power_days')
      .select(['fbox_id', 'day_ts', m1.as('m1_kwh'), 'm1_resets', m2.as('m2_kwh'), 'm2_resets'])
      .select(['peak_kw', 'hashes_th', 'hash_kwh'])
      .where('fbox_id', 'in', ids)
      .where('day_ts', 'in', days)
      .execute();
  }

  /**
   * Sums the windows from the hours in one statement, a row for each box and day (zeros and nulls
   * where nothing was counted); windows stored meanwhile by another reader are kept.
   */
  private async fill(ids: readonly number[], days: readonly number[]): Promise<void> {
    const sorted = [...days].sort((a, b) => a - b);
    const from = sorted[0]!;
    const to = sorted.at(-1)! + dayMs;
    const phase = sql.lit(((from % dayMs) + dayMs) % dayMs);
    const day = sql.lit(dayMs);
    const idList = sql.raw(ids.map(integerLiteral).join(', '));
    const dayList = sql.raw(sorted.map((d) => `(${integerLiteral(d)})`).join(', '));
    const window = (column: string) => sql`${sql.ref(column)} - ((${sql.ref(column)} - ${phase}) % ${day})`;
    const meter = (no: number, column: string) =>
      sql`sum(case when no = ${sql.lit(no)} then ${sql.ref(column)} else 0 end)`;
    // The box's energy of an hour with a hashrate: its meters' energy then (null if neither counted).
    const boxKwh = sql`coalesce(m1.energy_kwh + m2.energy_kwh, m1.energy_kwh, m2.energy_kwh)`;
    // The window's table row but its cost, as MeterEnergyService.statistic writes a row.
    const m1 = sql`case when e.m1_readings > 0 then e.m1_kwh end`;
    const m2 = sql`case when e.m2_readings > 0 then e.m2_kwh end`;
    const efficiency = sql`case when x.hashes_th > 0 then x.hash_kwh * 3600000 / x.hashes_th end`;
    const rowHead = sql`'{"bucket_ts":' || cast(d.day_ts as text) || ',"fbox_id":' || cast(f.id as text)
      || ',"energy_kwh":' || ${jsonNumber(rounded(sql`(coalesce(${m1}, 0) + coalesce(${m2}, 0))`, 3))}
      || ',"meter1_kwh":' || ${jsonNumber(rounded(m1, 3))} || ',"meter2_kwh":' || ${jsonNumber(rounded(m2, 3))}
      || ',"resets":' || cast(coalesce(e.m1_resets, 0) + coalesce(e.m2_resets, 0) as text)
      || ',"peak_kw":' || ${jsonNumber(rounded(sql`x.peak_kw`, 3))}
      || ',"j_per_th":' || ${jsonNumber(rounded(efficiency, 2))}`;
    const statement = sql`
      with days (day_ts) as (values ${dayList}),
      e as (
        select fbox_id, ${window('hour_ts')} as day_ts,
          ${meter(1, 'energy_kwh')} as m1_kwh, ${meter(1, 'resets')} as m1_resets,
          ${meter(1, 'readings')} as m1_readings, ${meter(2, 'energy_kwh')} as m2_kwh,
          ${meter(2, 'resets')} as m2_resets, ${meter(2, 'readings')} as m2_readings
        from meter_energy_hourly
        where fbox_id in (${idList}) and hour_ts >= ${sql.lit(from)} and hour_ts < ${sql.lit(to)}
        group by fbox_id, ${window('hour_ts')}
      ),
      x as (
        select s.fbox_id, ${window('s.bucket_ts')} as day_ts,
          max(case when s.power_kw_max >= 0 then s.power_kw_max end) as peak_kw,
          sum(case when s.hashrate_total_avg > 0 then s.hashrate_total_avg * 3600 end) as hashes_th,
          sum(case when s.hashrate_total_avg > 0 then ${boxKwh} end) as hash_kwh
        from fbox_samples_1h s
        left join meter_energy_hourly m1 on m1.fbox_id = s.fbox_id and m1.no = 1 and m1.hour_ts = s.bucket_ts
        left join meter_energy_hourly m2 on m2.fbox_id = s.fbox_id and m2.no = 2 and m2.hour_ts = s.bucket_ts
        where s.fbox_id in (${idList}) and s.bucket_ts >= ${sql.lit(from)} and s.bucket_ts < ${sql.lit(to)}
        group by s.fbox_id, ${window('s.bucket_ts')}
      )
      insert into fbox_power_days (fbox_id, day_ts, m1_kwh, m1_resets, m1_readings, m2_kwh, m2_resets,
        m2_readings, peak_kw, hashes_th, hash_kwh, row_head)
      select f.id, d.day_ts, coalesce(e.m1_kwh, 0), coalesce(e.m1_resets, 0), coalesce(e.m1_readings, 0),
        coalesce(e.m2_kwh, 0), coalesce(e.m2_resets, 0), coalesce(e.m2_readings, 0),
        x.peak_kw, x.hashes_th, x.hash_kwh, ${rowHead}
      from fboxes f
      cross join days d
      left join e on e.fbox_id = f.id and e.day_ts = d.day_ts
      left join x on x.fbox_id = f.id and x.day_ts = d.day_ts
      where f.id in (${idList})
      on conflict (day_ts, fbox_id) do nothing`;
    await this.atomically('fbox_power_days', (db) => statement.execute(db));
  }

  /**
   * Runs a fill in a transaction so no writer's change of the rows it reads goes unforgotten: on
   * SQLite the one connection runs it alone; on PostgreSQL it holds a lock on `table` that is
   * self-exclusive and exclusive of the row-exclusive lock a writer's forgetting takes, to the end
   * of its transaction. Writers forget the day sets before the windows, the order a set's fill
   * locks them in.
   */
  private async atomically(
    table: 'fbox_power_days' | 'fbox_load_hours' | 'fbox_power_day_sets',
    fill: (db: Kysely<DB> | Transaction<DB>) => Promise<unknown>,
  ): Promise<void> {
    const fillIn = async (trx: Kysely<DB> | Transaction<DB>) => {
      if (this.dialect === 'postgres')
        await sql`lock table ${sql.table(table)} in share row exclusive mode`.execute(trx);
      await fill(trx);
    };
    if (this.db.isTransaction) await fillIn(this.db);
    else await this.db.transaction().execute(fillIn);
  }
}
