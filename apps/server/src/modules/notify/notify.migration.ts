import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { notNull, withId } from '../../db/migration-helpers.js';

/**
 * The notification outbox (issue 13 §6). The unique key makes one row per alert transition, channel
 * and address of a recipient, whatever repeats the write; `notifications_due` serves the sender's
 * claim of due rows, `notifications_group` its merge of one group's rows.
 */
export const notifyMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('notifications'), dialect)
      // No foreign key to alerts (the alarm feature's tables stay its own to drop); a mine's
      // notifications go with the mine, as its alerts do.
      .addColumn('alert_id', 'integer', notNull)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(10)', notNull)
      .addColumn('channel', 'varchar(10)', notNull)
      .addColumn('address', 'varchar(2000)', notNull)
      .addColumn('group_key', 'varchar(64)', notNull)
      .addColumn('status', 'varchar(10)', (c) => c.notNull().defaultTo('pending'))
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('next_attempt_at', 'bigint', notNull)
      .addColumn('leased_until', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('leased_by', 'varchar(64)')
      .addColumn('last_error', 'varchar(500)')
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('sent_at', 'bigint')
      .addUniqueConstraint('notifications_once', ['alert_id', 'kind', 'channel', 'user_id', 'address'])
      .execute();
    await db.schema
      .createIndex('notifications_due')
      .on('notifications')
      .columns(['status', 'next_attempt_at'])
      .execute();
    await db.schema
      .createIndex('notifications_group')
      .on('notifications')
      .columns(['group_key', 'status'])
      .execute();
    await db.schema
      .createTable('notify_languages')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('language', 'varchar(5)', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notify_languages').execute();
    await db.schema.dropTable('notifications').execute();
  },
});
