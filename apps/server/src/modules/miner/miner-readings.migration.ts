import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { createReadingIndexes, dropReadingIndexes } from './miner-hot.migration.js';

/**
 * SQLite: no index of `miner_state` holds a reading either, so a sample's upsert writes the row and
 * its primary key alone. SQLite rewrites an index on update when the SET names one of its columns,
 * and the readings upsert names the realtime hashrate and the chip temperature on every sample:
 * four indexes (the sorts by either, and status or model sorted by hashrate) were rewritten each
 * time, the largest share of a sample's write (docs/performance.md, "Readings without indexes").
 *
 * The list sorted on either reading is served from sort snapshots on a long list (as the other
 * readings already were: `snapshotSort`), and by a scan of the mine's rows on a short one. Status
 * and model keep their indexes on settings (`miner_state_sort_online`, `miner_state_sort_model`,
 * `0035`), which ingest writes only when they change. PostgreSQL dropped the same four in `0038`.
 */
export const minerReadingsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect === 'sqlite') await dropReadingIndexes(db);
  },
  async down(db: Kysely<unknown>) {
    if (dialect === 'sqlite') await createReadingIndexes(db);
  },
});
