import type { Kysely, Migration } from 'kysely';
import { notNull } from '../../db/migration-helpers.js';

/**
 * Revenue settings of a mine (issue 14): the coin, what a terahash earns (network difficulty and
 * block reward), the coin's price in a fiat currency, entered or read from an address, and when that
 * address is read next (the price job claims a mine by moving `price_next_at`). One row per mine,
 * gone with it; a mine without a row has the defaults (BTC, USD, nothing entered).
 */
export const revenueSettingsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('revenue_settings')
      .addColumn('area_id', 'integer', (c) => c.primaryKey().references('areas.id').onDelete('cascade'))
      .addColumn('coin', 'varchar(8)', notNull)
      .addColumn('network_difficulty', 'double precision', notNull)
      .addColumn('block_reward', 'double precision', notNull)
      .addColumn('coin_price', 'double precision', notNull)
      .addColumn('fiat', 'varchar(8)', notNull)
      .addColumn('price_url', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('price_fetched_at', 'bigint')
      .addColumn('price_error', 'varchar(300)')
      .addColumn('price_next_at', 'bigint')
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema
      .createIndex('revenue_settings_price_next_at')
      .on('revenue_settings')
      .column('price_next_at')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('revenue_settings').execute();
  },
};
