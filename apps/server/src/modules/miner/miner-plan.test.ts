import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { bulkInsert, bulkUpdateChanged } from '../../db/bulk.js';
import { updateStatistics } from '../../db/database.js';
import { minerInfoColumns, minerReadingColumns, minerStateWrites } from '../../devices/telemetry-rows.js';
import { buildTestApp, describeDb, type TestApp, testDbKind } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import { createArea, createMaster } from '../../test/factories.js';
import { noOutlet } from './miner-order.js';
import { minerSortColumns } from './miner-sort.migration.js';

/** The readings a sample brings (`miner_readings`, `0042`). */
const readings = minerReadingColumns.filter((c) => c !== 'miner_id' && c !== 'updated_at');

describeDb('miner list indexes', () => {
  let t: TestApp;
  afterEach(() => t.close());

  /**
   * SQLite rewrites an index on update when the SET names one of its columns: the readings have a
   * table of their own with no index but its primary key (`0042`; none was indexed since `0039`),
   * so a sample's readings upsert writes a narrow row alone. A page filtered on status and model
   * still searches an index of a setting (`miner_info`), in the list's order.
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
      const indexesOf = async (table: string) =>
        (
          await sql<{ name: string }>`select name from sqlite_master
            where type = 'index' and tbl_name = ${table}`.execute(t.app.db)
        ).rows;
      expect((await indexesOf('miner_info')).length).toBeGreaterThan(5);
      expect(await indexesOf('miner_readings')).toEqual([]);
      const infoColumns = await sql<{
        name: string;
      }>`select name from pragma_table_info('miner_info')`.execute(t.app.db);
      for (const reading of readings) expect(infoColumns.rows.map((c) => c.name)).not.toContain(reading);
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
   * PostgreSQL writes a new version of a row on update, and every index again unless the update is
   * heap-only (HOT): a sample's readings go to `miner_readings`, indexed by its primary key alone,
   * as HOT updates; its settings, unchanged, write no version of the `miner_info` row at all, and
   * take no lock on it. Checked on ingest's own writes, in one transaction so its statistics can be
   * read at once.
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
      const indexed = await sql<{ indexname: string }>`select indexname from pg_indexes
        where tablename = 'miner_readings' and schemaname = current_schema()`.execute(t.app.db);
      expect(indexed.rows.map((r) => r.indexname)).toEqual(['miner_readings_pkey']);
      const [{ fillfactor }] = (
        await sql<{ fillfactor: string }>`select (
          select option_value from pg_options_to_table(reloptions) where option_name = 'fillfactor'
        ) as fillfactor from pg_class where oid = 'miner_readings'::regclass`.execute(t.app.db)
      ).rows as [{ fillfactor: string }];
      expect(fillfactor).toBe('70');

      const stored = await t.app.db.selectFrom('miner_state').selectAll().orderBy('miner_id').execute();
      const rowsOf = (columns: readonly string[]) =>
        stored.map((row, i) =>
          columns.map((column) =>
            column === 'hashrate_realtime'
              ? 150 + i
              : column === 'chip_max_temp'
                ? 70 + (i % 5)
                : column === 'updated_at'
                  ? row.updated_at + 30_000
                  : row[column as keyof typeof row],
          ),
        );
      const { info, readings: readingsWrite } = minerStateWrites;
      const counts = await t.app.db.transaction().execute(async (trx) => {
        await bulkUpdateChanged(trx, info.table, info.columns, rowsOf(minerInfoColumns), {
          key: 'miner_id',
          update: info.conflict.update,
        });
        await bulkInsert(
          trx,
          'postgres',
          readingsWrite.table,
          readingsWrite.columns,
          rowsOf(minerReadingColumns),
          readingsWrite.conflict,
        );
        return (
          await sql<{ updated: string; hot: string; info: string }>`select
            pg_stat_get_xact_tuples_updated('miner_readings'::regclass) as updated,
            pg_stat_get_xact_tuples_hot_updated('miner_readings'::regclass) as hot,
            pg_stat_get_xact_tuples_updated('miner_info'::regclass) as info`.execute(trx)
        ).rows[0]!;
      });
      expect(Number(counts.info)).toBe(0);
      // Nor is an unchanged row locked: a lock would set its xmax (and write a WAL record).
      const lockedOrUpdated = await sql<{ n: string }>`select count(*) as n from miner_info
        where xmax::text <> '0'`.execute(t.app.db);
      expect(Number(lockedOrUpdated.rows[0]!.n)).toBe(0);
      // HOT needs room on the row's page for its next version: fresh pages filled to 70 % hold it for
      // about half these rows on a table of wide rows, all 40 here; later, pruning reclaims the dead
      // versions. With a reading indexed, none is HOT.
      expect(Number(counts.updated)).toBe(40);
      expect(Number(counts.hot)).toBeGreaterThanOrEqual(10);

      // A changed setting is written; the others are not.
      const changed = rowsOf(minerInfoColumns).slice(0, 2);
      changed[0]![minerInfoColumns.indexOf('firmware')] = 'changed-firmware';
      const infoCounts = await t.app.db.transaction().execute(async (trx) => {
        // A connection's counts not reported yet include its earlier transactions': compared.
        const read = async () =>
          (
            await sql<{ updated: number; inserted: number }>`select
              pg_stat_get_xact_tuples_updated('miner_info'::regclass) as updated,
              pg_stat_get_xact_tuples_inserted('miner_info'::regclass) as inserted`.execute(trx)
          ).rows[0]!;
        const before = await read();
        await bulkUpdateChanged(trx, info.table, info.columns, changed, {
          key: 'miner_id',
          update: info.conflict.update,
        });
        const after = await read();
        return { updated: after.updated - before.updated, inserted: after.inserted - before.inserted };
      });
      expect(infoCounts).toEqual({ updated: 1, inserted: 0 });
      const after = await t.app.db
        .selectFrom('miner_info')
        .select(['miner_id', 'firmware'])
        .where('miner_id', 'in', [stored[0]!.miner_id, stored[1]!.miner_id])
        .orderBy('miner_id')
        .execute();
      expect(after).toEqual([
        { miner_id: stored[0]!.miner_id, firmware: 'changed-firmware' },
        { miner_id: stored[1]!.miner_id, firmware: stored[1]!.firmware },
      ]);
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
      for (const column of readings)
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
      expect(chunkPlan).not.toMatch(/SCAN miner_info(?! USING)/);
      const snapshotPage = await explain(
        sql`select miner_id from miner_state where area_id = ${areaId} and miner_id in (select value from json_each(${'[5,3,9]'}))`,
      );
      expect(snapshotPage).toMatch(/SEARCH miner_info USING .*miner_id=\?\)/);
      expect(snapshotPage).not.toMatch(/SCAN miner_(info|readings)/);
    },
  );
});
