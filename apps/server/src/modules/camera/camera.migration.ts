import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { withId } from '../../db/migration-helpers.js';

/**
 * Cameras of the FBOXes (issue 15), their snapshots and each mine's snapshot settings. A camera
 * hangs off its FBOX and goes with it; snapshots go with their camera. The JPEG is stored in the
 * database (a BLOB on SQLite, bytea on PostgreSQL), so every server process reads the same images
 * and a backup of the database holds them.
 */
export const camerasMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('cameras'), dialect)
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('stream', 'varchar(512)', (c) => c.notNull())
      .addColumn('next_snapshot_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_snapshot_at', 'bigint')
      .addColumn('last_error_kind', 'varchar(32)')
      .addColumn('last_error_detail', 'varchar(300)')
      .addColumn('last_error_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('cameras_fbox_id').on('cameras').column('fbox_id').execute();
    await withId(db.schema.createTable('camera_images'), dialect)
      .addColumn('camera_id', 'integer', (c) => c.notNull().references('cameras.id').onDelete('cascade'))
      .addColumn('taken_at', 'bigint', (c) => c.notNull())
      .addColumn('bytes', 'integer', (c) => c.notNull())
      .addColumn('jpeg', dialect === 'sqlite' ? 'blob' : 'bytea', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('camera_images_camera_taken')
      .on('camera_images')
      .columns(['camera_id', 'taken_at'])
      .execute();
    await db.schema.createIndex('camera_images_taken_at').on('camera_images').column('taken_at').execute();
    await db.schema
      .createTable('camera_settings')
      .addColumn('area_id', 'integer', (c) => c.primaryKey().references('areas.id').onDelete('cascade'))
      .addColumn('interval_minutes', 'integer', (c) => c.notNull())
      .addColumn('retention_days', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('camera_settings').execute();
    await db.schema.dropTable('camera_images').execute();
    await db.schema.dropTable('cameras').execute();
  },
});
