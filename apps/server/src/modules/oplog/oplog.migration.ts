import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { withId } from '../../db/migration-helpers.js';

/**
 * The operation log: one row per state-changing call. No foreign keys on purpose: a record outlives
 * the user, mine or device it names (user name and mine name are copied). `master_id` is the master
 * account whose records these are (read scope); null only for a failed login of an unknown name.
 */
export const oplogMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('operation_log'), dialect)
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'integer')
      .addColumn('username', 'varchar(50)', (c) => c.notNull())
      .addColumn('master_id', 'integer')
      .addColumn('ip', 'varchar(64)')
      .addColumn('area_id', 'integer')
      .addColumn('area_name', 'varchar(50)')
      .addColumn('action', 'varchar(64)', (c) => c.notNull())
      .addColumn('path', 'varchar(200)', (c) => c.notNull())
      .addColumn('target', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('params', 'text', (c) => c.notNull())
      .addColumn('code', 'integer', (c) => c.notNull())
      .addColumn('message_key', 'varchar(100)', (c) => c.notNull())
      .addColumn('message_params', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    // Reads are always scoped by master, user or mine and sorted newest first.
    await db.schema
      .createIndex('operation_log_master_at')
      .on('operation_log')
      .columns(['master_id', 'at', 'id'])
      .execute();
    await db.schema
      .createIndex('operation_log_user_at')
      .on('operation_log')
      .columns(['user_id', 'at', 'id'])
      .execute();
    await db.schema
      .createIndex('operation_log_area_at')
      .on('operation_log')
      .columns(['area_id', 'at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('operation_log').execute();
  },
});
