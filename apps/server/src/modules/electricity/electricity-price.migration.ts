import { type Kysely, type Migration, sql } from 'kysely';
import { notNull } from '../../db/migration-helpers.js';

/**
 * Electricity price history (issue 14): a mine's price per kWh from `valid_from` (epoch ms) until
 * the next row's. Each existing mine starts with its current price valid from 0 (always), so every
 * hour of its history has a price. `created_by` is the user who set it (null for these first rows).
 */
export const electricityPriceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('electricity_prices')
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('valid_from', 'bigint', notNull)
      .addColumn('price', 'double precision', notNull)
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'bigint', notNull)
      .addPrimaryKeyConstraint('electricity_prices_pk', ['area_id', 'valid_from'])
      .execute();
    await sql`insert into electricity_prices (area_id, valid_from, price, created_by, created_at)
      select id, 0, electricity_price, null, created_at from areas`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('electricity_prices').execute();
  },
};
