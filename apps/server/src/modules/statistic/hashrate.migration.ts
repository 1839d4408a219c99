import type { Kysely, Migration } from 'kysely';
import { notNull } from '../../db/migration-helpers.js';

const num = 'double precision';

/** Hashrate overview storage (docs/statistics.md): per-miner and per-split hourly sums with running totals. */
export const fleetHourlyMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const sums = ['cover_s', 'reach_s', 'hash_s', 'hashrate_s', 'theo_s'];
    let miner = db.schema
      .createTable('miner_hashrate_1h')
      .addColumn('miner_id', 'integer', notNull)
      .addColumn('hour_ts', 'bigint', notNull)
      .addColumn('area_id', 'integer', notNull)
      .addColumn('fbox_id', 'integer', notNull)
      .addColumn('model', 'varchar(64)', notNull)
      .addColumn('online', 'integer', notNull);
    for (const c of sums) miner = miner.addColumn(c, num, notNull).addColumn(`cum_${c}`, num, notNull);
    await miner.addPrimaryKeyConstraint('miner_hashrate_1h_pk', ['miner_id', 'hour_ts']).execute();
    await db.schema
      .createIndex('miner_hashrate_1h_area')
      .on('miner_hashrate_1h')
      .columns(['area_id', 'hour_ts'])
      .execute();
    // Pruning by age.
    await db.schema.createIndex('miner_hashrate_1h_hour').on('miner_hashrate_1h').column('hour_ts').execute();

    let fleet = db.schema
      .createTable('fleet_hashrate_1h')
      .addColumn('area_id', 'integer', notNull)
      .addColumn('dim', 'varchar(8)', notNull)
      .addColumn('key', 'varchar(64)', notNull)
      .addColumn('hour_ts', 'bigint', notNull);
    for (const c of ['wall_s', 'miners', 'online_miners', ...sums])
      fleet = fleet.addColumn(c, num, notNull).addColumn(`cum_${c}`, num, notNull);
    await fleet
      .addPrimaryKeyConstraint('fleet_hashrate_1h_pk', ['area_id', 'dim', 'key', 'hour_ts'])
      .execute();
    await db.schema
      .createIndex('fleet_hashrate_1h_range')
      .on('fleet_hashrate_1h')
      .columns(['area_id', 'dim', 'hour_ts'])
      .execute();
    // The rollup's hour replaced, the last hour rolled up, pruning by age.
    await db.schema.createIndex('fleet_hashrate_1h_hour').on('fleet_hashrate_1h').column('hour_ts').execute();

    await db.schema
      .createTable('fleet_hashrate_keys')
      .addColumn('area_id', 'integer', notNull)
      .addColumn('dim', 'varchar(8)', notNull)
      .addColumn('key', 'varchar(64)', notNull)
      .addPrimaryKeyConstraint('fleet_hashrate_keys_pk', ['area_id', 'dim', 'key'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['fleet_hashrate_keys', 'fleet_hashrate_1h', 'miner_hashrate_1h'])
      await db.schema.dropTable(t).execute();
  },
};
