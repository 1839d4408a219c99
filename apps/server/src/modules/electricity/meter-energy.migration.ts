import type { Kysely, Migration } from 'kysely';
import { notNull } from '../../db/migration-helpers.js';

const num = 'double precision';

/**
 * Energy per meter and hour (issue 14), written at ingest. Hourly rows rather than raw readings:
 * a month of a 10,000-FBOX site is 10,000 × 2 meters × 720 hours = 14.4 M rows, where readings
 * every 30 s would be 1.7 billion; statistics read these rows (summed into days or months in the
 * user's time zone, which whole-hour offsets keep aligned to UTC hours) and never raw samples
 * (docs/statistics.md gives the measured read times).
 * `meter_reading_state` is each meter's last counted reading, so a new reading's increase is known
 * without looking back through history.
 */
export const meterEnergyMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('meter_energy_hourly')
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('no', 'integer', notNull)
      .addColumn('hour_ts', 'bigint', notNull)
      .addColumn('energy_kwh', num, notNull)
      .addColumn('resets', 'integer', notNull)
      .addColumn('readings', 'integer', notNull)
      .addColumn('first_ts', 'bigint', notNull)
      .addColumn('first_reading', num, notNull)
      .addColumn('last_ts', 'bigint', notNull)
      .addColumn('last_reading', num, notNull)
      .addColumn('sensor_ratio', num, notNull)
      .addPrimaryKeyConstraint('meter_energy_hourly_pk', ['fbox_id', 'no', 'hour_ts'])
      .execute();
    await db.schema
      .createTable('meter_reading_state')
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('no', 'integer', notNull)
      .addColumn('ts', 'bigint', notNull)
      .addColumn('energy_kwh', num, notNull)
      .addPrimaryKeyConstraint('meter_reading_state_pk', ['fbox_id', 'no'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('meter_reading_state').execute();
    await db.schema.dropTable('meter_energy_hourly').execute();
  },
};
