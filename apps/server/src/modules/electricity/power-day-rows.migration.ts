import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { notNull } from '../../db/migration-helpers.js';
import { createPowerDays } from './power-days.migration.js';

const num = 'double precision';

/**
 * The settled days (migration 0033) re-made for reading a range of them as the statistic's table
 * (docs/statistics.md "Speed"): each window keeps its table row as JSON text (`row_head`, all but
 * the cost, which follows the price), written by the statement that sums the window, and the key is
 * (day, box), so a range of days comes out in the table's order. On SQLite the table is clustered
 * on that key (`without rowid`): a day's boxes are neighbours. A set of boxes' rows of a day are
 * then kept joined (`fbox_power_day_sets`), so a month is 30 reads. The windows are a cache of sums
 * of the hours, so the old ones are dropped, not converted: the next read sums them again.
 */
export const powerDayRowsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema.dropTable('fbox_power_days').execute();
    let table = db.schema
      .createTable('fbox_power_days')
      .addColumn('day_ts', 'bigint', notNull)
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'));
    for (const no of [1, 2])
      table = table
        .addColumn(`m${no}_kwh`, num, notNull)
        .addColumn(`m${no}_resets`, 'integer', notNull)
        .addColumn(`m${no}_readings`, 'integer', notNull);
    table = table
      .addColumn('peak_kw', num)
      .addColumn('hashes_th', num)
      .addColumn('hash_kwh', num)
      .addColumn('row_head', 'text', notNull)
      .addPrimaryKeyConstraint('fbox_power_days_pk', ['day_ts', 'fbox_id']);
    if (dialect === 'sqlite') table = table.modifyEnd(sql`without rowid`);
    await table.execute();
    // A set of boxes' rows of a day as one text, at the price they were costed at, with the
    // day's sums (the set keyed as `fbox_load_hours` keys it).
    await db.schema
      .createTable('fbox_power_day_sets')
      .addColumn('boxes', 'varchar(64)', notNull)
      .addColumn('day_ts', 'bigint', notNull)
      .addColumn('price', num, notNull)
      .addColumn('rows_json', 'text', notNull)
      .addColumn('rows', 'integer', notNull)
      .addColumn('energy_kwh', num, notNull)
      .addColumn('cost', num, notNull)
      .addColumn('resets', 'integer', notNull)
      .addColumn('hashes_th', num, notNull)
      .addColumn('hash_kwh', num, notNull)
      .addPrimaryKeyConstraint('fbox_power_day_sets_pk', ['boxes', 'day_ts'])
      .execute();
    await db.schema
      .createIndex('fbox_power_day_sets_day')
      .on('fbox_power_day_sets')
      .column('day_ts')
      .execute();
    // Forgetting a box's windows around the hours it changed.
    await db.schema
      .createIndex('fbox_power_days_box')
      .on('fbox_power_days')
      .columns(['fbox_id', 'day_ts'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('fbox_power_day_sets').execute();
    await db.schema.dropTable('fbox_power_days').execute();
    await createPowerDays(db);
  },
});
