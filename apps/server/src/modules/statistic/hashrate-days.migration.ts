import type { Kysely, Migration } from 'kysely';
import { notNull } from '../../db/migration-helpers.js';

/**
 * Settled days of the hashrate overview (docs/statistics.md "Speed"): per mine, split, bucket and
 * 24-hour window, the overview's rows of that day as JSON text (by day: the split's row of the day;
 * by hour: the split's rows of its hours, and under `all` the mine's), computed once. The hourly
 * rollup forgets the windows holding an hour it rewrites.
 */
export const hashrateDaysMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('fleet_hashrate_days')
      .addColumn('area_id', 'integer', notNull)
      .addColumn('dim', 'varchar(8)', notNull)
      .addColumn('bucket', 'varchar(8)', notNull)
      .addColumn('day_ts', 'bigint', notNull)
      .addColumn('rows_json', 'text', notNull)
      .addPrimaryKeyConstraint('fleet_hashrate_days_pk', ['area_id', 'dim', 'bucket', 'day_ts'])
      .execute();
    // Forgetting the windows from a rewritten hour on, and pruning by age.
    await db.schema
      .createIndex('fleet_hashrate_days_day')
      .on('fleet_hashrate_days')
      .column('day_ts')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('fleet_hashrate_days').execute();
  },
};
