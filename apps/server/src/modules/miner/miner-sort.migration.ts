import { type Kysely, type Migration, sql } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { noOutlet } from './miner-order.js';

/**
 * Miner list sorts that an index orders, on SQLite. Sorted by a column no index ordered, the list
 * read and sorted the whole mine on every request (100,000 miners: 20–40 ms of CPU per 20-row
 * page, 20–85× the bare route). These columns change rarely or never with a sample: ingest updates
 * them only where they differ (see `minerSettings` in telemetry-rows.ts), and SQLite rewrites an index on update
 * only when the update names one of its columns, so these indexes cost ingest nothing while the
 * miners stay as they are. hashrate_24h is written by the hourly rollup alone. The outlet is
 * indexed as the list sorts it, a miner on no outlet last (`noOutlet`). On SQLite the row id
 * ends every index (the miner id), but it is named so the order is explicit.
 *
 * `(area_id, miner_id)` is then created again, last: where nothing orders the page (a sort on a
 * reading that changes with every sample), the indexes led by `area_id` cost the planner the same,
 * and SQLite takes the newest. Walking the mine in id order reads its rows in table order (28 ms
 * for 100,000 miners here); walking it in another index's order read them at random (80–90 ms).
 * `miner-plan.test.ts` checks both.
 *
 * Boxes get an index by name (both dialects): the list sorted by box walks the mine's boxes in
 * name order and sorts only the miners of boxes of one name, by id.
 *
 * The miner_state indexes are SQLite only. PostgreSQL writes a new entry in every index of a row
 * whenever it cannot update the row in place (HOT): on every sample while an index held a reading
 * (until `0038`), and still on a good share of them without (page room). Measured with these
 * indexes added there (1,000,000 miners, 33,333 samples/s): 17,900 samples/s stored against 32,900
 * without (miner-hot.migration.ts).
 */
export const minerSortColumns = [
  'worker',
  'model',
  'ip',
  'firmware',
  'pool_address',
  'online',
  'hashrate_theoretical',
  'hashrate_24h',
] as const;

const outletIndex = sql`create index miner_state_sort_outlet on miner_state (area_id, coalesce(outlet, ${sql.lit(noOutlet)}), miner_id)`;

const areaOrder = async (db: Kysely<unknown>) => {
  await db.schema.dropIndex('miner_state_area_miner').execute();
  await db.schema
    .createIndex('miner_state_area_miner')
    .on('miner_state')
    .columns(['area_id', 'miner_id'])
    .execute();
};

export const minerSortMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    // Both dialects: boxes by name, for the list sorted by its box (boxes are not written by ingest).
    await db.schema.createIndex('fboxes_area_name').on('fboxes').columns(['area_id', 'name']).execute();
    if (dialect !== 'sqlite') return;
    for (const column of minerSortColumns)
      await db.schema
        .createIndex(`miner_state_sort_${column}`)
        .on('miner_state')
        .columns(['area_id', column, 'miner_id'])
        .execute();
    await outletIndex.execute(db);
    await areaOrder(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('fboxes_area_name').execute();
    if (dialect !== 'sqlite') return;
    for (const column of [...minerSortColumns, 'outlet'])
      await db.schema.dropIndex(`miner_state_sort_${column}`).execute();
    await areaOrder(db);
  },
});
