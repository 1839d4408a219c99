import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { withId } from '../../db/migration-helpers.js';

/**
 * Observer links and pool subaccounts of a mine (spec §3, §7). Both go with their mine. A mine lists
 * one pool subaccount per pool, name and coin; observer links may repeat (they are only bookmarks).
 */
export const poolsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('observer_links'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('pool', 'varchar(64)', (c) => c.notNull())
      .addColumn('subaccount', 'varchar(64)', (c) => c.notNull())
      .addColumn('coin', 'varchar(32)', (c) => c.notNull())
      .addColumn('link', 'varchar(500)', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('observer_links_area_id').on('observer_links').column('area_id').execute();

    await withId(db.schema.createTable('pool_subaccounts'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('pool', 'varchar(64)', (c) => c.notNull())
      .addColumn('subaccount', 'varchar(64)', (c) => c.notNull())
      .addColumn('coin', 'varchar(32)', (c) => c.notNull())
      .addColumn('observer_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('api_key', 'varchar(256)')
      .addColumn('api_secret', 'varchar(256)')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('pool_subaccounts_unique')
      .unique()
      .on('pool_subaccounts')
      .columns(['area_id', 'pool', 'subaccount', 'coin'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('pool_subaccounts').execute();
    await db.schema.dropTable('observer_links').execute();
  },
});
