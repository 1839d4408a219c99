import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { withId } from '../../db/migration-helpers.js';

/**
 * Boards of a mine (issue 15) and the FBOXes each covers. A board's kiosk link is stored as the
 * SHA-256 of its token only. Both go with their mine; a covered FBOX
 * that is deleted leaves the board. A board covering none covers the whole mine.
 */
export const boardsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('boards'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      .addColumn('title', 'varchar(64)', (c) => c.notNull())
      .addColumn('theme', 'varchar(16)', (c) => c.notNull())
      .addColumn('metric', 'varchar(16)', (c) => c.notNull().defaultTo('status'))
      .addColumn('page_seconds', 'integer', (c) => c.notNull().defaultTo(20))
      .addColumn('kiosk_token_hash', 'varchar(64)')
      .addColumn('kiosk_created_at', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('boards_area_id').on('boards').column('area_id').execute();
    await db.schema
      .createIndex('boards_kiosk_token_hash')
      .unique()
      .on('boards')
      .column('kiosk_token_hash')
      .execute();
    await db.schema
      .createTable('board_fboxes')
      .addColumn('board_id', 'integer', (c) => c.notNull().references('boards.id').onDelete('cascade'))
      .addColumn('fbox_id', 'integer', (c) => c.notNull().references('fboxes.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('board_fboxes_pk', ['board_id', 'fbox_id'])
      .execute();
    await db.schema.createIndex('board_fboxes_fbox_id').on('board_fboxes').column('fbox_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('board_fboxes').execute();
    await db.schema.dropTable('boards').execute();
  },
});
