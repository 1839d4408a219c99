import type { Kysely, Migration } from 'kysely';
import { notNull } from '../../db/migration-helpers.js';

const subaccountRef = 'pool_subaccounts.id';

/**
 * What the pools report (issue 14): each subaccount's earnings per UTC day (one row per day, so a
 * sync that runs again replaces instead of adding), its pool-side hashrate over time, and the state
 * of its sync (last success, last failure with its reason, when to try next). All go with the
 * subaccount.
 */
export const poolSyncMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('pool_earnings')
      .addColumn('subaccount_id', 'integer', (c) => c.notNull().references(subaccountRef).onDelete('cascade'))
      .addColumn('area_id', 'integer', notNull)
      .addColumn('day', 'varchar(10)', notNull)
      .addColumn('coin', 'varchar(32)', notNull)
      // Whole coins as exact decimal text ("0.00061081"): summed exactly, never as floats.
      .addColumn('amount', 'varchar(40)', notNull)
      .addColumn('synced_at', 'bigint', notNull)
      .addPrimaryKeyConstraint('pool_earnings_pk', ['subaccount_id', 'day'])
      .execute();
    await db.schema
      .createIndex('pool_earnings_area_day')
      .on('pool_earnings')
      .columns(['area_id', 'day'])
      .execute();

    await db.schema
      .createTable('pool_hashrate')
      .addColumn('subaccount_id', 'integer', (c) => c.notNull().references(subaccountRef).onDelete('cascade'))
      .addColumn('area_id', 'integer', notNull)
      .addColumn('ts', 'bigint', notNull)
      .addColumn('realtime_ths', 'double precision', notNull)
      .addColumn('hour_ths', 'double precision', notNull)
      .addColumn('day_ths', 'double precision', notNull)
      .addColumn('active_workers', 'integer')
      .addPrimaryKeyConstraint('pool_hashrate_pk', ['subaccount_id', 'ts'])
      .execute();

    await db.schema
      .createTable('pool_sync_states')
      .addColumn('subaccount_id', 'integer', (c) =>
        c.primaryKey().references(subaccountRef).onDelete('cascade'),
      )
      // 'ok' | 'failed' | 'unsupported'
      .addColumn('status', 'varchar(16)', notNull)
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_attempt_at', 'bigint', notNull)
      .addColumn('last_success_at', 'bigint')
      .addColumn('last_error', 'varchar(300)')
      .addColumn('next_attempt_at', 'bigint', notNull)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['pool_sync_states', 'pool_hashrate', 'pool_earnings'])
      await db.schema.dropTable(table).execute();
  },
};
