import type { Kysely, Migration } from 'kysely';

/**
 * The miner commissioning board's test options (issue 15): the window in hours, the share of
 * theoretical hashrate a miner must average (%), the hottest chip allowed (°C). Every board gets
 * them with the defaults; only commissioning boards use them.
 */
export const boardCommissioningMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('boards')
      .addColumn('test_hours', 'integer', (c) => c.notNull().defaultTo(24))
      .execute();
    await db.schema
      .alterTable('boards')
      .addColumn('pass_ratio', 'integer', (c) => c.notNull().defaultTo(90))
      .execute();
    await db.schema
      .alterTable('boards')
      .addColumn('max_chip_temp', 'integer', (c) => c.notNull().defaultTo(85))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const column of ['max_chip_temp', 'pass_ratio', 'test_hours'])
      await db.schema.alterTable('boards').dropColumn(column).execute();
  },
};
