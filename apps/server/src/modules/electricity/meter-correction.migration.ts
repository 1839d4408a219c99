import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { notNull, withId } from '../../db/migration-helpers.js';

const num = 'double precision';

/**
 * Meter readings entered by a person (`set_meter_data` with a reading, issue 14), with what each
 * moved in the hourly energy, so the energy pages can be traced back to who entered what and why.
 */
export const meterCorrectionsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('meter_corrections'), dialect)
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('no', 'integer', notNull)
      .addColumn('reading_at', 'bigint', notNull)
      .addColumn('reading_kwh', num, notNull)
      .addColumn('reason', 'text', notNull)
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('energy_kwh', num, notNull)
      .addColumn('next_hour_ts', 'bigint')
      .addColumn('next_delta_kwh', num, notNull)
      .execute();
    await db.schema
      .createIndex('meter_corrections_fbox')
      .on('meter_corrections')
      .columns(['fbox_id', 'reading_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('meter_corrections').execute();
  },
});
