import type { ColumnDefinitionBuilder, Kysely, Migration } from 'kysely';
import { fboxRollupMetrics, minerRollupMetrics, tankRollupMetrics } from '../devices/rollup-metrics.js';
import type { Dialect } from './database.js';
import { notNull, type Table, withId } from './migration-helpers.js';

/** Readings default to -999, the protocol's "no data". */
const reading = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(-999);
const num = 'double precision';

/** Adds reading columns (double, default -999) to a table. */
const readings = (table: Table, names: string[]): Table =>
  names.reduce((t, name) => t.addColumn(name, num, reading), table);

/** Rollup table: (id, bucket_ts) with avg/min/max of the given metrics and the sample count. */
const rollup = (db: Kysely<unknown>, name: string, idColumn: string, metrics: string[]) => {
  let table = db.schema
    .createTable(name)
    .addColumn(idColumn, 'integer', notNull)
    .addColumn('bucket_ts', 'bigint', notNull)
    .addColumn('samples', 'integer', notNull);
  for (const m of metrics) {
    table = table
      .addColumn(`${m}_avg`, num, notNull)
      .addColumn(`${m}_min`, num, notNull)
      .addColumn(`${m}_max`, num, notNull);
  }
  return table.addPrimaryKeyConstraint(`${name}_pk`, [idColumn as never, 'bucket_ts' as never]).execute();
};

/**
 * FBOXes, tanks, miners with their latest state, history samples and rollups, commands and job
 * leases. History tables carry no foreign keys: they are written in bulk and pruned by retention.
 */
export const devicesMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('fboxes'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('name', 'varchar(50)', notNull)
      .addColumn('number', 'varchar(50)', (c) => c.notNull().defaultTo(''))
      .addColumn('kind', 'varchar(16)', notNull)
      .addColumn('ip_range', 'varchar(100)', (c) => c.notNull().defaultTo(''))
      .addColumn('voltage_min', num, (c) => c.notNull().defaultTo(342))
      .addColumn('voltage_max', num, (c) => c.notNull().defaultTo(418))
      .addColumn('device_id', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('mqtt_username', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('mqtt_password', 'varchar(128)', notNull)
      .addColumn('reporting_interval_s', 'integer', (c) => c.notNull().defaultTo(30))
      .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('fboxes_area').on('fboxes').columns(['area_id', 'id']).execute();

    await db.schema
      .createTable('fbox_collectors')
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('no', 'integer', notNull)
      .addColumn('mac', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('account', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('password', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addPrimaryKeyConstraint('fbox_collectors_pk', ['fbox_id', 'no'])
      .execute();
    await db.schema
      .createTable('fbox_meters')
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('no', 'integer', notNull)
      .addColumn('meter_number', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('sensor_ratio', num, (c) => c.notNull().defaultTo(1))
      .addColumn('energy_offset_kwh', num, (c) => c.notNull().defaultTo(0))
      .addColumn('reset_at', 'bigint')
      .addPrimaryKeyConstraint('fbox_meters_pk', ['fbox_id', 'no'])
      .execute();

    await readings(
      db.schema
        .createTable('fbox_state')
        .addColumn('fbox_id', 'integer', (c) => c.primaryKey().references('fboxes.id').onDelete('cascade'))
        .addColumn('area_id', 'integer', notNull)
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_seen_at', 'bigint')
        .addColumn('last_seq', 'bigint', (c) => c.notNull().defaultTo(-1)),
      [
        'temperature',
        'humidity',
        'voltage_a',
        'voltage_b',
        'voltage_c',
        'power_kw',
        'meter1_energy_kwh',
        'meter1_power_kw',
        'meter2_energy_kwh',
        'meter2_power_kw',
        'immersion_percent',
        'water_in_temp',
        'water_out_temp',
        'flow_rate',
        'valve_opening',
        'hashrate_total',
        'energy_day_start_kwh',
      ],
    )
      .addColumn('immersion_status', 'varchar(8)', (c) => c.notNull().defaultTo(''))
      .addColumn('pumps', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('public_ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('energy_day', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('miner_online', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('miner_offline', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('fbox_state_area').on('fbox_state').columns(['area_id', 'online']).execute();

    await withId(db.schema.createTable('tanks'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('no', 'integer', notNull)
      .addColumn('name', 'varchar(50)', notNull)
      .addColumn('work_number', 'varchar(50)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('tanks_fbox_no').unique().on('tanks').columns(['fbox_id', 'no']).execute();
    await db.schema.createIndex('tanks_area').on('tanks').columns(['area_id', 'fbox_id']).execute();

    await readings(
      db.schema
        .createTable('tank_state')
        .addColumn('tank_id', 'integer', (c) => c.primaryKey().references('tanks.id').onDelete('cascade'))
        .addColumn('area_id', 'integer', notNull)
        .addColumn('fbox_id', 'integer', notNull)
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0)),
      ['oil_in_temp', 'oil_out_temp', 'liquid_level', 'oil_pump_efficiency', 'water_in_temp', 'water_speed'],
    )
      .addColumn('fans', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('short_circuit', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('energy_saving', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('control_mode', 'varchar(8)', (c) => c.notNull().defaultTo('auto'))
      .addColumn('main_temperatures', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('tank_state_area').on('tank_state').columns(['area_id', 'fbox_id']).execute();

    await withId(db.schema.createTable('miners'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('tank_id', 'integer', (c) => c.references('tanks.id').onDelete('set null'))
      .addColumn('sn', 'varchar(64)', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .execute();
    await db.schema.createIndex('miners_fbox_sn').unique().on('miners').columns(['fbox_id', 'sn']).execute();
    await db.schema.createIndex('miners_area_sn').on('miners').columns(['area_id', 'sn']).execute();

    await readings(
      db.schema
        .createTable('miner_state')
        .addColumn('miner_id', 'integer', (c) => c.primaryKey().references('miners.id').onDelete('cascade'))
        .addColumn('area_id', 'integer', notNull)
        .addColumn('fbox_id', 'integer', notNull)
        .addColumn('tank_id', 'integer')
        .addColumn('sn', 'varchar(64)', notNull)
        .addColumn('worker', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('model', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('brand', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('pool', 'varchar(128)', (c) => c.notNull().defaultTo(''))
        .addColumn('pool_address', 'varchar(256)', (c) => c.notNull().defaultTo(''))
        .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('firmware', 'varchar(64)', (c) => c.notNull().defaultTo(''))
        .addColumn('outlet', 'integer')
        .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('mode', 'varchar(8)', (c) => c.notNull().defaultTo('high'))
        .addColumn('fault', 'varchar(64)', (c) => c.notNull().defaultTo('')),
      [
        'chip_avg_temp',
        'chip_max_temp',
        'hashrate_theoretical',
        'hashrate_realtime',
        'hashrate_avg',
        'hashrate_24h',
        'power_w',
        'uptime_s',
      ],
    )
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    // The miner list filters by area plus one of these, and sorts by SN, hashrate or temperature
    // from an index. Every index is rewritten by each state upsert, so only the common ones exist;
    // sorting by another column scans the area's rows (fine up to ~100k miners).
    const minerIndexes: string[][] = [
      ['area_id', 'fbox_id', 'tank_id'],
      ['area_id', 'online'],
      ['area_id', 'model'],
      ['area_id', 'brand'],
      ['area_id', 'pool'],
      ['area_id', 'mode'],
      ['area_id', 'fault'],
      ['area_id', 'sn'],
      ['area_id', 'hashrate_realtime'],
      ['area_id', 'chip_max_temp'],
    ];
    for (const columns of minerIndexes) {
      await db.schema
        .createIndex(`miner_state_${columns.slice(1).join('_')}`)
        .on('miner_state')
        .columns(columns)
        .execute();
    }

    await db.schema
      .createTable('miner_samples')
      .addColumn('miner_id', 'integer', notNull)
      .addColumn('ts', 'bigint', notNull)
      .addColumn('hashrate', num, notNull)
      .addColumn('power_w', num, notNull)
      .addColumn('chip_max_temp', num, notNull)
      .addColumn('online', 'integer', notNull)
      .execute();
    await db.schema
      .createIndex('miner_samples_id_ts')
      .on('miner_samples')
      .columns(['miner_id', 'ts'])
      .execute();
    await db.schema.createIndex('miner_samples_ts').on('miner_samples').column('ts').execute();
    await db.schema
      .createTable('fbox_samples')
      .addColumn('fbox_id', 'integer', notNull)
      .addColumn('ts', 'bigint', notNull)
      .addColumn('power_kw', num, notNull)
      .addColumn('temperature', num, notNull)
      .addColumn('humidity', num, notNull)
      .addColumn('hashrate_total', num, notNull)
      .addColumn('energy_kwh', num, notNull)
      .execute();
    await db.schema.createIndex('fbox_samples_id_ts').on('fbox_samples').columns(['fbox_id', 'ts']).execute();
    await db.schema.createIndex('fbox_samples_ts').on('fbox_samples').column('ts').execute();
    await db.schema
      .createTable('tank_samples')
      .addColumn('tank_id', 'integer', notNull)
      .addColumn('ts', 'bigint', notNull)
      .addColumn('oil_in_temp', num, notNull)
      .addColumn('oil_out_temp', num, notNull)
      .addColumn('liquid_level', num, notNull)
      .execute();
    await db.schema.createIndex('tank_samples_id_ts').on('tank_samples').columns(['tank_id', 'ts']).execute();
    await db.schema.createIndex('tank_samples_ts').on('tank_samples').column('ts').execute();

    for (const suffix of ['1m', '1h']) {
      await rollup(db, `miner_samples_${suffix}`, 'miner_id', [...minerRollupMetrics]);
      await rollup(db, `fbox_samples_${suffix}`, 'fbox_id', [...fboxRollupMetrics]);
      await rollup(db, `tank_samples_${suffix}`, 'tank_id', [...tankRollupMetrics]);
      for (const table of ['miner', 'fbox', 'tank']) {
        await db.schema
          .createIndex(`${table}_samples_${suffix}_ts`)
          .on(`${table}_samples_${suffix}`)
          .column('bucket_ts')
          .execute();
      }
    }

    await db.schema
      .createTable('commands')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('miner_id', 'integer')
      .addColumn('tank_id', 'integer')
      .addColumn('kind', 'varchar(32)', notNull)
      .addColumn('target', 'text', notNull)
      .addColumn('params', 'text', notNull)
      .addColumn('status', 'varchar(16)', notNull)
      .addColumn('error', 'text')
      .addColumn('batch_id', 'varchar(64)')
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('sent_at', 'bigint')
      .addColumn('acked_at', 'bigint')
      .addColumn('timeout_at', 'bigint', notNull)
      .execute();
    await db.schema
      .createIndex('commands_miner')
      .on('commands')
      .columns(['miner_id', 'created_at'])
      .execute();
    await db.schema.createIndex('commands_status').on('commands').columns(['status', 'timeout_at']).execute();
    await db.schema.createIndex('commands_batch').on('commands').column('batch_id').execute();
    await db.schema.createIndex('commands_fbox').on('commands').columns(['fbox_id', 'created_at']).execute();

    await db.schema
      .createTable('jobs')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('claimed_by', 'varchar(64)')
      .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_run_at', 'bigint')
      .addColumn('next_run_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  },
});
