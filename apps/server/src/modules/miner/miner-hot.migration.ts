import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';

/**
 * PostgreSQL: no index of `miner_state` holds a reading, so a sample's update is HOT (heap-only).
 * PostgreSQL writes a new entry in every index of a row whenever one indexed column changes. The
 * list's hashrate and temperature indexes changed with every sample, so each sample wrote all
 * eleven indexes of its row, and a 1,000,000-miner site (33,333 samples/s) outran the database on a
 * 2-core machine (~19,000/s stored). Without them, and with room left in each page
 * (`fillfactor = 70`) for the row's next version, an update whose settings are unchanged writes no
 * index at all (docs/performance.md, "Ingest write shape and list sorts": a raw upsert 9,000 →
 * 35,000 rows/s).
 *
 * The price: a sort on hashrate or chip temperature reads and sorts the mine, as every other sort on
 * a reading already did (1,000,000 miners: about 0.2 s). No index on settings is added for the list's
 * sorts: an update that finds no room on its page is not HOT and writes every index, so each one
 * costs a share of the samples (measured with SQLite's nine sort indexes added: 17,900 samples/s
 * stored at 1,000,000 miners instead of 32,900).
 *
 * `fillfactor` applies to pages written from now on; an existing mine's table takes it at its next
 * rewrite (`VACUUM FULL miner_state`, a maintenance window's work). SQLite drops the same four in
 * `0039` (miner-readings.migration.ts).
 */
const readingIndexes = {
  miner_state_hashrate_realtime: ['area_id', 'hashrate_realtime'],
  miner_state_chip_max_temp: ['area_id', 'chip_max_temp'],
  miner_state_online_hashrate_realtime: ['area_id', 'online', 'hashrate_realtime', 'miner_id'],
  miner_state_model_hashrate_online: ['area_id', 'model', 'hashrate_realtime', 'miner_id', 'online'],
} as const;

/** Drops the indexes of `miner_state` that hold a reading (this migration; SQLite's `0039`). */
export const dropReadingIndexes = async (db: Kysely<unknown>) => {
  for (const name of Object.keys(readingIndexes)) await db.schema.dropIndex(name).execute();
};

/** Creates them again (the migrations' `down`). */
export const createReadingIndexes = async (db: Kysely<unknown>) => {
  for (const [name, columns] of Object.entries(readingIndexes))
    await db.schema
      .createIndex(name)
      .on('miner_state')
      .columns([...columns])
      .execute();
};

export const minerHotMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await dropReadingIndexes(db);
    await sql`alter table miner_state set (fillfactor = 70)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    await sql`alter table miner_state reset (fillfactor)`.execute(db);
    await createReadingIndexes(db);
  },
});
