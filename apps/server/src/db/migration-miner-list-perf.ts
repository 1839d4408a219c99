import type { Kysely, Migration } from 'kysely';

/**
 * The status + model page (DESIGN §10) walks `(area_id, model, hashrate_realtime, miner_id)` and
 * checked `online` in the table row of every entry it passed, offset rows included: on SQLite 3×
 * the time of the status-only page, whose index holds everything it compares. `online` now ends
 * the key, so the walk reads the index alone (SQLite; PostgreSQL when the pages are all-visible).
 * It follows `miner_id`, which is unique, so the order the list needs is unchanged, and ingest
 * keeps the same number of indexes to maintain. Both dialects; `0003` is never edited.
 */
export const minerListPerfMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('miner_state_model_hashrate_online')
      .on('miner_state')
      .columns(['area_id', 'model', 'hashrate_realtime', 'miner_id', 'online'])
      .execute();
    await db.schema.dropIndex('miner_state_model_hashrate_realtime').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .createIndex('miner_state_model_hashrate_realtime')
      .on('miner_state')
      .columns(['area_id', 'model', 'hashrate_realtime', 'miner_id'])
      .execute();
    await db.schema.dropIndex('miner_state_model_hashrate_online').execute();
  },
};
