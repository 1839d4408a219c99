import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { updateStatistics } from '../../db/database.js';
import { buildTestApp, describeDb, type TestApp, testDbKind } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import { createArea, createMaster } from '../../test/factories.js';
import { noOutlet } from './miner-order.js';
import { minerSortColumns } from './miner-sort.migration.js';

/**
 * The list's two-filter page (status + model, by hashrate) must walk (area_id, model, hashrate…,
 * online) — on SQLite from the index alone:
 * the other candidate, (area_id, online, hashrate…), skips every online miner of the other models.
 * With statistics (updateStatistics) SQLite picks it; PostgreSQL analyzes by itself.
 */
describeDb('miner list indexes', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('serves status + model sorted by hashrate from the model index once statistics exist', async () => {
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
    if (testDbKind === 'postgres') await sql`analyze miner_state`.execute(t.app.db);
    else await updateStatistics(t.app.db, t.app.dbDialect);
    const query = sql`select miner_id from miner_state where area_id = ${areaId} and online = ${1} and model = ${'S19 Pro'} order by hashrate_realtime desc, miner_id desc limit 50`;
    const plan =
      testDbKind === 'sqlite'
        ? (await sql<{ detail: string }>`explain query plan ${query}`.execute(t.app.db)).rows.map(
            (r) => r.detail,
          )
        : (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(t.app.db)).rows.map(
            (r) => r['QUERY PLAN'],
          );
    expect(plan.join('\n')).toContain('miner_state_model_hashrate_online');
    if (testDbKind === 'sqlite') expect(plan.join('\n')).toContain('COVERING INDEX');
  });

  // SQLite: each sort of a column that changes rarely is read off an index in order (no sort of the
  // mine per request); a sort on a reading walks the mine in id order, that is in table order.
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
      const ordered = [
        'miner_id',
        'sn',
        'brand',
        'pool',
        'mode',
        'fault',
        'chip_max_temp',
        'hashrate_realtime',
        ...minerSortColumns,
        'outlet',
      ];
      for (const column of ordered)
        for (const direction of ['asc', 'desc'] as const)
          expect(`${column} ${direction}: ${await planOf(column, direction)}`).not.toContain('TEMP B-TREE');
      for (const column of ['power_w', 'uptime_s', 'chip_avg_temp', 'updated_at'])
        expect(`${column}: ${await planOf(column, 'desc')}`).toContain('miner_state_area_miner');
      // By box: the boxes in name order, each box's miners sorted by id (never the whole mine).
      const byBox = sql`select m.miner_id from miner_state m join fboxes f on f.id = m.fbox_id
        where m.area_id = ${areaId} and f.area_id = ${areaId} order by f.name desc, m.miner_id desc limit 20`;
      const boxPlan = (await sql<{ detail: string }>`explain query plan ${byBox}`.execute(t.app.db)).rows
        .map((r) => r.detail)
        .join(' | ');
      expect(boxPlan).toContain('fboxes_area_name');
      expect(boxPlan).not.toContain('TEMP B-TREE FOR ORDER BY');
    },
  );
});
