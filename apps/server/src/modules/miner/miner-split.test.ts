import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testDbKind } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import { createArea, createMaster } from '../../test/factories.js';
import { minerSplitMigration } from './miner-split.migration.js';

describeDb('migration 0042 (miner readings in a table of their own)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  /**
   * The rows of `miner_state`, table or view. A statement's text of its own each time: a prepared
   * `select *` keeps the column names it was prepared with across the schema's changes.
   */
  let reads = 0;
  const stateRows = () =>
    sql`select * from miner_state ${sql.raw(`/* ${++reads} */`)} order by miner_id`
      .execute(t.app.db)
      .then((r) => r.rows);

  it("moves every miner's readings, keeps the view's rows as the table's were, and is reversible", async () => {
    t = await buildTestApp();
    const areaId = (await createArea(t.app, (await createMaster(t.app)).id)).id;
    const box = await createFbox(t.app, areaId);
    const ids = await createMiners(
      t.app,
      box,
      Array.from({ length: 5 }, (_, i) => ({
        sn: `SN${i}`,
        worker: `acct.rig${i}`,
        online: i % 2,
        hashrate_realtime: 100 + i,
        chip_max_temp: 60 + i,
        hashrate_24h: 90 + i,
        uptime_s: 1000 * i,
        updated_at: 5000 + i,
      })),
    );
    const split = await stateRows();
    const migration = minerSplitMigration(t.app.dbDialect);
    const db = t.app.db as never;

    await migration.down!(db);
    // One table again, with the same rows and columns in the same order.
    expect(await stateRows()).toEqual(split);
    // A miner written the way ingest wrote before the split.
    await sql`update miner_state set hashrate_realtime = 250, power_w = 3000, worker = ${'acct.moved'}
      where miner_id = ${ids[4]!}`.execute(t.app.db);
    const before = await stateRows();

    await migration.up(db);
    expect(await stateRows()).toEqual(before);
    expect(
      await t.app.db
        .selectFrom('miner_readings')
        .select(['miner_id', 'power_w'])
        .orderBy('miner_id')
        .execute(),
    ).toEqual(ids.map((id, i) => ({ miner_id: id, power_w: i === 4 ? 3000 : -999 })));
    if (testDbKind === 'sqlite') {
      // The keyword index's triggers moved with the table.
      await t.app.db
        .updateTable('miner_info')
        .set({ worker: 'acct.renamed' })
        .where('miner_id', '=', ids[1]!)
        .execute();
      const found = await sql<{ rowid: number }>`select rowid from miner_search
        where miner_search match ${'"renamed"'}`.execute(t.app.db);
      expect(found.rows.map((r) => Number(r.rowid))).toEqual([ids[1]]);
    }
    // A deleted miner leaves neither of its rows.
    await t.app.db.deleteFrom('miners').where('id', '=', ids[0]!).execute();
    expect(
      await t.app.db.selectFrom('miner_info').select('miner_id').where('miner_id', '=', ids[0]!).execute(),
    ).toEqual([]);
    expect(
      await t.app.db
        .selectFrom('miner_readings')
        .select('miner_id')
        .where('miner_id', '=', ids[0]!)
        .execute(),
    ).toEqual([]);
  });
});
