import { defaultAlertRules } from '@fbox/contracts';
import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { notNull, withId } from '../../db/migration-helpers.js';

const num = 'double precision';

/**
 * The alarm center's rules and alerts (issue 13). `alert_states` is what makes a restart neither
 * lose nor re-fire an alert: since when each rule's condition holds on each device, and which alert
 * it opened. At most one open alert per rule and device is a partial unique index, so two processes
 * evaluating the same device cannot both open one. Mines that exist already get the default rules.
 */
export const alarmMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('alert_rules'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('metric', 'varchar(32)', notNull)
      .addColumn('level', 'integer', notNull)
      .addColumn('threshold', num)
      .addColumn('threshold_max', num)
      .addColumn('sustain_seconds', 'integer', notNull)
      .addColumn('hysteresis', num, (c) => c.notNull().defaultTo(0))
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema
      .createIndex('alert_rules_area')
      .on('alert_rules')
      .columns(['area_id', 'metric'])
      .execute();

    await db.schema
      .createTable('alert_states')
      .addColumn('rule_id', 'integer', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
      // 'fbox' | 'tank' | 'miner'; the id is of that table (no foreign key: three tables).
      .addColumn('device_kind', 'varchar(8)', notNull)
      .addColumn('device_id', 'integer', notNull)
      .addColumn('area_id', 'integer', notNull)
      .addColumn('fbox_id', 'integer', notNull)
      .addColumn('pending_since', 'bigint')
      .addColumn('alert_id', 'integer')
      .addPrimaryKeyConstraint('alert_states_pk', ['rule_id', 'device_kind', 'device_id'])
      .execute();
    await db.schema.createIndex('alert_states_fbox').on('alert_states').column('fbox_id').execute();

    await withId(db.schema.createTable('alerts'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      // History outlives its rule and device: both are copied, no foreign key.
      .addColumn('rule_id', 'integer', notNull)
      .addColumn('metric', 'varchar(32)', notNull)
      .addColumn('level', 'integer', notNull)
      .addColumn('device_kind', 'varchar(8)', notNull)
      .addColumn('device_id', 'integer', notNull)
      .addColumn('fbox_id', 'integer', notNull)
      .addColumn('device_name', 'varchar(200)', notNull)
      .addColumn('value', num)
      .addColumn('peak_value', num)
      .addColumn('detail', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('started_at', 'bigint', notNull)
      .addColumn('ended_at', 'bigint')
      .addColumn('acked_by', 'integer')
      .addColumn('acked_at', 'bigint')
      .addColumn('ack_note', 'varchar(500)')
      .execute();
    await db.schema
      .createIndex('alerts_one_open')
      .unique()
      .on('alerts')
      .columns(['rule_id', 'device_kind', 'device_id'])
      .where(sql.ref('ended_at'), 'is', null)
      .execute();
    // Current alerts of a mine (ended_at null) and its history, newest first.
    await db.schema
      .createIndex('alerts_area_open')
      .on('alerts')
      .columns(['area_id', 'ended_at', 'started_at'])
      .execute();
    await db.schema
      .createIndex('alerts_area_started')
      .on('alerts')
      .columns(['area_id', 'started_at'])
      .execute();

    const now = Date.now();
    for (const r of defaultAlertRules) {
      await sql`insert into alert_rules
          (area_id, metric, level, threshold, threshold_max, sustain_seconds, hysteresis, enabled, created_at, updated_at)
        select id, cast(${r.metric} as varchar(32)), cast(${r.level} as integer),
          cast(${r.threshold} as double precision), cast(${r.threshold_max} as double precision),
          cast(${r.sustain_seconds} as integer), cast(${r.hysteresis} as double precision),
          cast(${r.enabled ? 1 : 0} as integer), cast(${now} as bigint), cast(${now} as bigint)
        from areas`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['alerts', 'alert_states', 'alert_rules']) await db.schema.dropTable(table).execute();
  },
});
