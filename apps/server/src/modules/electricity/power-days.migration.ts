import type { Kysely, Migration } from 'kysely';
import { notNull } from '../../db/migration-helpers.js';

const num = 'double precision';

/**
 * Settled days of the power statistics (issue 14): per FBOX and 24-hour window, its meters' energy
 * and its demand and hashes, summed once from the hourly rows instead of on every read. A window is
 * keyed by its start instant, so one row serves every time zone whose midnight falls then (zones
 * are whole hours: a day is one of 24 phases of the UTC day). Writers of the hourly rows forget the
 * rows whose window holds an hour they change (see `PowerDayRepository`). Likewise the load
 * profile's settled hours, per set of boxes.
 */
/** `fbox_power_days` as this migration makes it (keyed by box, then day); 0036 re-makes it. */
export const createPowerDays = async (db: Kysely<unknown>) => {
  let table = db.schema
    .createTable('fbox_power_days')
    .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
    .addColumn('day_ts', 'bigint', notNull);
  for (const no of [1, 2])
    table = table
      .addColumn(`m${no}_kwh`, num, notNull)
      .addColumn(`m${no}_resets`, 'integer', notNull)
      .addColumn(`m${no}_readings`, 'integer', notNull);
  await table
    .addColumn('peak_kw', num)
    .addColumn('hashes_th', num)
    .addColumn('hash_kwh', num)
    .addPrimaryKeyConstraint('fbox_power_days_pk', ['fbox_id', 'day_ts'])
    .execute();
  // Forgetting every box's windows from an hour on (the hourly rollup rewrote them).
  await db.schema.createIndex('fbox_power_days_day').on('fbox_power_days').column('day_ts').execute();
};

export const powerDaysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await createPowerDays(db);
    // The load profile's settled hours: a set of boxes' summed hourly average and maximum power.
    await db.schema
      .createTable('fbox_load_hours')
      .addColumn('boxes', 'varchar(64)', notNull)
      .addColumn('hour_ts', 'bigint', notNull)
      .addColumn('avg_kw', num)
      .addColumn('max_kw', num)
      .addPrimaryKeyConstraint('fbox_load_hours_pk', ['boxes', 'hour_ts'])
      .execute();
    await db.schema.createIndex('fbox_load_hours_hour').on('fbox_load_hours').column('hour_ts').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('fbox_load_hours').execute();
    await db.schema.dropTable('fbox_power_days').execute();
  },
};
