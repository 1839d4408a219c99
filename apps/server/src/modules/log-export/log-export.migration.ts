import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { withId } from '../../db/migration-helpers.js';

/**
 * Miner log exports (issue 15): an export, each of its miners with the `miner.logs` command that
 * asked for its log, and the parts of each log as the gateway sent them. Everything lives in the
 * database, so any server process can take the job over or serve the download. All go with their
 * mine; a deleted miner's row stays (with its SN) until the export is deleted.
 */
export const logExportsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('log_exports'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('scope', 'varchar(16)', (c) => c.notNull())
      .addColumn('scope_label', 'varchar(512)', (c) => c.notNull())
      .addColumn('from_ts', 'bigint', (c) => c.notNull())
      .addColumn('to_ts', 'bigint', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('total', 'integer', (c) => c.notNull())
      .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('log_exports_area_created')
      .on('log_exports')
      .columns(['area_id', 'created_at'])
      .execute();
    await db.schema.createIndex('log_exports_status').on('log_exports').column('status').execute();
    await db.schema.createIndex('log_exports_expires_at').on('log_exports').column('expires_at').execute();

    await db.schema
      .createTable('log_export_miners')
      .addColumn('export_id', 'integer', (c) => c.notNull().references('log_exports.id').onDelete('cascade'))
      .addColumn('miner_id', 'integer', (c) => c.notNull())
      .addColumn('fbox_id', 'integer', (c) => c.notNull())
      .addColumn('sn', 'varchar(64)', (c) => c.notNull())
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('command_id', 'varchar(64)')
      .addColumn('error', 'varchar(600)')
      .addColumn('bytes', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('log_export_miners_pk', ['export_id', 'miner_id'])
      .execute();
    await db.schema
      .createIndex('log_export_miners_state')
      .on('log_export_miners')
      .columns(['export_id', 'state', 'fbox_id'])
      .execute();
    await db.schema
      .createIndex('log_export_miners_command')
      .unique()
      .on('log_export_miners')
      .column('command_id')
      .execute();

    await db.schema
      .createTable('log_export_parts')
      .addColumn('command_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('part', 'integer', (c) => c.notNull())
      .addColumn('last', 'integer', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('log_export_parts_pk', ['command_id', 'part'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('log_export_parts').execute();
    await db.schema.dropTable('log_export_miners').execute();
    await db.schema.dropTable('log_exports').execute();
  },
});
