import { type Kysely, type Migration, sql } from 'kysely';
import { notNull } from '../../db/migration-helpers.js';

/**
 * Silences and why an alert ended (issue 13). A silence holds one rule on one device quiet until a
 * time: the alert still opens and closes, no notification goes out. `end_reason` tells history
 * whether an alert recovered or was closed because its rule changed, was deleted, or its device
 * was removed (alerts closed before this migration recovered).
 */
export const alarmSilenceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('alert_silences')
      .addColumn('rule_id', 'integer', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
      .addColumn('device_kind', 'varchar(8)', notNull)
      .addColumn('device_id', 'integer', notNull)
      .addColumn('area_id', 'integer', notNull)
      .addColumn('until', 'bigint', notNull)
      .addColumn('created_by', 'integer', notNull)
      .addColumn('note', 'varchar(500)')
      .addColumn('created_at', 'bigint', notNull)
      .addPrimaryKeyConstraint('alert_silences_pk', ['rule_id', 'device_kind', 'device_id'])
      .execute();
    await db.schema.alterTable('alerts').addColumn('end_reason', 'varchar(16)').execute();
    await sql`update alerts set end_reason = 'recovered' where ended_at is not null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('alerts').dropColumn('end_reason').execute();
    await db.schema.dropTable('alert_silences').execute();
  },
};
