import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { bulkInsert } from '../../db/bulk.js';
import { updateStatistics } from '../../db/database.js';
import { minerStateColumns, minerStateReadings, minerStateWrites } from '../../devices/telemetry-rows.js';
import { buildTestApp, describeDb, type TestApp, testDbKind } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import { createArea, createMaster } from '../../test/factories.js';
import { noOutlet } from './miner-order.js';
import { minerSortColumns } from './miner-sort.migration.js';

describeDb('miner list indexes', () => {
  let t: TestApp;
  afterEach(() => t.close());

  /**
   * SQLite rewrites an index on update when the SET names one of its columns: with no reading in
   * any index of miner_state, a sample's readings upsert writes the row alone (`0039`). A page
   * filtered on status and model still searches an index of a setting, in the list's order.
   */
  it.runIf(testDbKind === 'sqlite')(
    'indexes no reading, and serves status + model from an index of a setting',
    async () => {
      t = await buildTestApp();
      const areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
      const box = await createFbox(t.app, areaId);
      const models = ['S19 Pro', 'S21', 'M50S', 'A1366'];
      await createMiners(
        t.app,
        box,
        Array.from({ length: 800 }, (_, i) => ({
          sn: `SN${i}`,
          model: models[i % 4]!,
          online: i % 10 === 0 ? 0 : 1,
          hashrate_realtime: 100 + (i % 4) * 30 + (i % 7),
        })),
      );
      const indexes = await sql<{ name: string }>`select name from sqlite_master
        where type = 'index' and tbl_name = 'miner_state'`.execute(t.app.db);
      expect(indexes.rows.length).toBeGreaterThan(5);
      for (const { name } of indexes.rows) {
        const columns = await sql<{
          name: string | null;
        }>`select name from pragma_index_info(${name})`.execute(t.app.db);
        for (const column of columns.rows) expect(minerStateReadings, name).not.toContain(column.name);
      }
      await updateStatistics(t.app.db, t.app.dbDialect);
      const query = sql`select miner_id from miner_state where area_id = ${areaId} and online = ${1} and model = ${'S19 Pro'} order by miner_id desc limit 50`;
      const plan = (await sql<{ detail: string }>`explain query plan ${query}`.execute(t.app.db)).rows
        .map((r) => r.detail)
        .join(' | ');
      expect(plan).toMatch(/USING (COVERING )?INDEX miner_state_sort_(model|online)/);
      expect(plan).not.toContain('TEMP B-TREE');
    },
  );

  /**
   * PostgreSQL writes every index of a row again when an indexed column changes: with no reading in
   * any index of miner_state, a sample that leaves the settings alone is a heap-only (HOT) update.
   * Checked on ingest's own upserts, in one transaction so its statistics can be read at once.
   */
  it.runIf(testDbKind === 'postgres')(
    "updates a miner's readings without writing an index (HOT)",
    async () => {
      t = await buildTestApp();
      const areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
      await createMiners(
        t.app,
        await createFbox(t.app, areaId),
        Array.from({ length: 40 }, (_, i) => ({ sn: `SN${i}`, model: 'S21', online: 1 })),
      );
      const indexed = await sql<{ indexdef: string }>`select indexdef from pg_indexes
        where tablename = 'miner_state' and schemaname = current_schema()`.execute(t.app.db);
      const definitions = indexed.rows.map((r) => r.indexdef).join('\n');
      for (const reading of minerStateReadings) expect(definitions).not.toContain(reading);
      const [{ fillfactor }] = (
        await sql<{ fillfactor: string }>`select (
          select option_value from pg_options_to_table(reloptions) where option_name = 'fillfactor'
        ) as fillfactor from pg_class where oid = 'miner_state'::regclass`.execute(t.app.db)
      ).rows as [{ fillfactor: string }];
      expect(fillfactor).toBe('70');

      const stored = await t.app.db.selectFrom('miner_state').selectAll().orderBy('miner_id').execute();
      const rows = stored.map((row, i) =>
        minerStateColumns.map((column) =>
          column === 'hashrate_realtime'
            ? 150 + i
            : column === 'chip_max_temp'
              ? 70 + (i % 5)
              : column === 'updated_at'
                ? row.updated_at + 30_000
                : row[column as keyof typeof row],
        ),
      );
      const counts = await t.app.db.transaction().execute(async (trx) => {
        for (const conflict of minerStateWrites('postgres'))
          await bulkInsert(trx, 'postgres', 'miner_state', minerStateColumns, rows, conflict);
        return (
          await sql<{ updated: string; hot: string }>`select
            pg_stat_get_xact_tuples_updated('miner_state'::regclass) as updated,
            pg_stat_get_xact_tuples_hot_updated('miner_state'::regclass) as hot`.execute(trx)
        ).rows[0]!;
      });
      // HOT needs room on the row's page for its next version: fresh pages filled to 70 % hold it for
      // about half these rows (19 of 40 here); later, pruning reclaims the dead versions. With a
      // reading indexed, none is HOT.
      expect(Number(counts.updated)).toBe(40);
      expect(Number(counts.hot)).toBeGreaterThanOrEqual(10);
    },
  );

  // SQLite: each sort of a column that changes rarely is read off an index in order (no sort of the
  // mine per request); a sort on a reading (no index holds one) walks the mine in id order, that is
  // in table order.
  it.runIf(testDbKind === 'sqlite')(
    'orders each page off an index, or walks the mine in id order',
    async () => {
      t = await buildTestApp();
      const areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
      for (const name of ['Box B', 'Box A', 'Box C', 'Box D'])
        await createMiners(
          t.app,
          await createFbox(t.app, areaId, { name }),
          Array.from({ length: 100 }, (_, i) => ({
            sn: `${name}-${i}`,
            model: `M${i % 4}`,
            online: i % 10 === 0 ? 0 : 1,
          })),
        );
      await updateStatistics(t.app.db, t.app.dbDialect);
      const planOf = async (column: string, direction: 'asc' | 'desc') => {
        // The outlet sorts as its value or, on no outlet, after every outlet (miner.repository.ts).
        const sorted =
          column === 'outlet' ? sql`coalesce(${sql.ref('outlet')}, ${sql.lit(noOutlet)})` : sql.ref(column);
        const order = sql`${sorted} ${sql.raw(direction)}, miner_id ${sql.raw(direction)}`;
        const query = sql`select miner_id from miner_state where area_id = ${areaId} order by ${order} limit 20`;
        const rows = (await sql<{ detail: string }>`explain query plan ${query}`.execute(t.app.db)).rows;
        return rows.map((r) => r.detail).join(' | ');
      };
      const ordered = ['miner_id', 'sn', 'brand', 'pool', 'mode', 'fault', ...minerSortColumns, 'outlet'];
      for (const column of ordered)
        for (const direction of ['asc', 'desc'] as const)
          expect(`${column} ${direction}: ${await planOf(column, direction)}`).not.toContain('TEMP B-TREE');
      for (const column of minerStateReadings)
        expect(`${column}: ${await planOf(column, 'desc')}`).toContain('miner_state_area_miner');
      // By box: the boxes in name order, each box's miners sorted by id (never the whole mine).
      const byBox = sql`select m.miner_id from miner_state m join fboxes f on f.id = m.fbox_id
        where m.area_id = ${areaId} and f.area_id = ${areaId} order by f.name desc, m.miner_id desc limit 20`;
      const boxPlan = (await sql<{ detail: string }>`explain query plan ${byBox}`.execute(t.app.db)).rows
        .map((r) => r.detail)
        .join(' | ');
      expect(boxPlan).toContain('fboxes_area_name');
      expect(boxPlan).not.toContain('TEMP B-TREE FOR ORDER BY');

      // Sort snapshots (orderedIds, pageParts): the mine read by id in chunks, in order off an
      // index; a snapshot's page looked up by id.
      const explain = async (query: ReturnType<typeof sql>) =>
        (await sql<{ detail: string }>`explain query plan ${query}`.execute(t.app.db)).rows
          .map((r) => r.detail)
          .join(' | ');
      const chunkPlan = await explain(
        sql`select miner_id, power_w from miner_state where area_id = ${areaId} and miner_id > ${0} order by miner_id limit 4096`,
      );
      expect(chunkPlan).not.toContain('TEMP B-TREE');
      expect(chunkPlan).not.toMatch(/SCAN miner_state(?! USING)/);
      const snapshotPage = await explain(
        sql`select miner_id from miner_state where area_id = ${areaId} and miner_id in (select value from json_each(${'[5,3,9]'}))`,
      );
      expect(snapshotPage).toMatch(/SEARCH miner_state USING .*miner_id=\?\)/);
      expect(snapshotPage).not.toMatch(/SCAN miner_state/);
    },
  );
});
