import { type Kysely, type Migration, type QueryExecutorProvider, sql } from 'kysely';

const totals = [
  ['cum_energy_kwh', 'energy_kwh', 'double precision'],
  ['cum_resets', 'resets', 'integer'],
  ['cum_readings', 'readings', 'integer'],
] as const;

/**
 * Running totals of each meter's hourly energy, resets and readings (issue 14): a day's or a
 * month's energy is then the difference of two rows per meter (the last hour before its end and
 * before its start), whatever the number of hours in it. Existing rows get theirs from a window sum;
 * each meter's last counted reading carries the totals so far, the base of the next hour's.
 */
/**
 * Sets every meter hour's and last reading's running totals from the hourly rows (a window sum per
 * meter): the migration's backfill, and what tests that write hourly rows directly run after.
 */
export const recomputeMeterTotals = async (db: QueryExecutorProvider): Promise<void> => {
  await sql`
    update meter_energy_hourly set
      cum_energy_kwh = t.cum_energy_kwh, cum_resets = t.cum_resets, cum_readings = t.cum_readings
    from (
      select fbox_id, no, hour_ts,
        sum(energy_kwh) over w as cum_energy_kwh, sum(resets) over w as cum_resets,
        sum(readings) over w as cum_readings
      from meter_energy_hourly
      window w as (partition by fbox_id, no order by hour_ts)
    ) t
    where meter_energy_hourly.fbox_id = t.fbox_id and meter_energy_hourly.no = t.no
      and meter_energy_hourly.hour_ts = t.hour_ts`.execute(db);
  for (const [column] of totals)
    await sql`
      update meter_reading_state set ${sql.ref(column)} = coalesce((
        select h.${sql.ref(column)} from meter_energy_hourly h
        where h.fbox_id = meter_reading_state.fbox_id and h.no = meter_reading_state.no
        order by h.hour_ts desc limit 1), 0)`.execute(db);
};

export const meterEnergyTotalsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    for (const table of ['meter_energy_hourly', 'meter_reading_state'])
      for (const [column, , type] of totals)
        await db.schema
          .alterTable(table)
          .addColumn(column, type, (c) => c.notNull().defaultTo(0))
          .execute();
    await recomputeMeterTotals(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['meter_energy_hourly', 'meter_reading_state'])
      for (const [column] of totals) await db.schema.alterTable(table).dropColumn(column).execute();
  },
};
