import type { Kysely, Migration } from 'kysely';

/**
 * A data board's camera tile (issue 15): the camera whose latest snapshot the board shows. A camera
 * that is deleted leaves its boards without a tile.
 */
export const boardCameraMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('boards')
      .addColumn('camera_id', 'integer', (c) => c.references('cameras.id').onDelete('set null'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('boards').dropColumn('camera_id').execute();
  },
};
