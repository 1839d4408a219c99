import type { Kysely, Migration } from 'kysely';

/**
 * Miner list indexes for the common filter + sort pairs (DESIGN §10). With only `(area_id, online)`
 * and `(area_id, model)` a page filtered on one and sorted by hashrate either reads every matching
 * row and sorts them, or walks `(area_id, hashrate_realtime)` and skips rows — tens of thousands
 * when the filter picks the slow end (a model whose hashrate is low, offline miners at 0 TH/s).
 *
 * The two are widened rather than joined by new ones: `(area_id, online, hashrate_realtime, …)`
 * still serves everything `(area_id, online)` did, and ingest, which rewrites every index of each
 * upserted state row, keeps the same number of indexes to maintain. `miner_id` ends each key, so the
 * index alone gives the list's full order (`…, miner_id` breaks ties) and PostgreSQL reads the page's
 * ids from it without sorting (SQLite's indexes end with the rowid, which is miner_id, anyway).
 * Both dialects; `0002` is never edited.
 */
export const minerListMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('miner_state_online_hashrate_realtime')
      .on('miner_state')
      .columns(['area_id', 'online', 'hashrate_realtime', 'miner_id'])
      .execute();
    await db.schema
      .createIndex('miner_state_model_hashrate_realtime')
      .on('miner_state')
      .columns(['area_id', 'model', 'hashrate_realtime', 'miner_id'])
      .execute();
    await db.schema.dropIndex('miner_state_online').execute();
    await db.schema.dropIndex('miner_state_model').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .createIndex('miner_state_online')
      .on('miner_state')
      .columns(['area_id', 'online'])
      .execute();
    await db.schema
      .createIndex('miner_state_model')
      .on('miner_state')
      .columns(['area_id', 'model'])
      .execute();
    await db.schema.dropIndex('miner_state_online_hashrate_realtime').execute();
    await db.schema.dropIndex('miner_state_model_hashrate_realtime').execute();
  },
};
