import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';

/**
 * PostgreSQL: `(area_id, model, miner_id)` on `miner_info`, for the list's filter options (the mine's
 * models, read value by value from the index) and its model filter's pages in id order. `0038` dropped the last index led by the
 * model there, because it held a reading and every sample wrote it. Since `0042` a sample writes
 * `miner_readings` and `miner_info` changes only with a miner's settings, so this index costs ingest
 * nothing. SQLite has `miner_state_sort_model` (`0035`) for both.
 */
export const minerModelIndexMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await db.schema
      .createIndex('miner_state_model')
      .on('miner_info')
      .columns(['area_id', 'model', 'miner_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await db.schema.dropIndex('miner_state_model').execute();
  },
});
