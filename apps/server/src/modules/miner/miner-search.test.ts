import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testDbKind } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import { createArea, createMaster, get, login, post } from '../../test/factories.js';

/**
 * The list's keyword follows every change of a miner's worker, IP and SN (on SQLite through the
 * trigram index `miner_search` and its triggers; on PostgreSQL by reading the rows).
 */
describeDb('miner keyword search (fbox.miner/index)', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let ids: number[];
  beforeEach(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    const box = await createFbox(t.app, areaId);
    ids = await createMiners(
      t.app,
      box,
      Array.from({ length: 30 }, (_, i) => ({
        sn: `KS${String(i).padStart(4, '0')}`,
        worker: `acct.Rig${i}`,
        ip: `10.7.0.${i}`,
      })),
    );
  });
  afterEach(() => t.close());

  const found = async (keyword: string) => {
    const res = await get(
      t.app,
      '/index/fbox.miner/index',
      { area_id: String(areaId), keyword, limit: '50' },
      { token },
    );
    return (res.json().data as { items: { id: number }[] }).items.map((m) => m.id);
  };

  it('finds a miner by a part of its SN, worker or IP, in any case, short keywords too', async () => {
    expect(await found('KS0017')).toEqual([ids[17]]);
    expect(await found('ks001')).toEqual(ids.slice(10, 20));
    expect(await found('RIG2')).toEqual([ids[2], ...ids.slice(20, 30)]);
    expect(await found('.0.29')).toEqual([ids[29]]);
    expect(await found('g7')).toEqual([ids[7]]);
    expect(await found('"quoted"')).toEqual([]);
    expect(await found('10.7.0.%')).toEqual([]);
  });

  it.runIf(testDbKind === 'sqlite')(
    'looks a keyword of 3 characters or more up in the trigram index, a shorter one in the rows',
    async () => {
      expect(await found('KS0017')).toEqual([ids[17]]);
      // With the index emptied, only the rows can answer.
      await sql`insert into miner_search (miner_search) values ('delete-all')`.execute(t.app.db);
      expect(await found('KS0017')).toEqual([]);
      expect(await found('g7')).toEqual([ids[7]]);
      await sql`insert into miner_search (miner_search) values ('rebuild')`.execute(t.app.db);
      expect(await found('KS0017')).toEqual([ids[17]]);
    },
  );

  it('follows a changed worker, IP or SN, and forgets a deleted miner', async () => {
    await t.app.db
      .updateTable('miner_state')
      .set({ worker: 'other.box9', ip: '192.168.5.5' })
      .where('miner_id', '=', ids[3]!)
      .execute();
    expect(await found('acct.Rig3')).toEqual([]);
    expect(await found('other.box')).toEqual([ids[3]]);
    expect(await found('168.5.5')).toEqual([ids[3]]);
    // An update that leaves the three as they were.
    await t.app.db
      .updateTable('miner_state')
      .set({ worker: 'other.box9', power_w: 1 })
      .where('miner_id', '=', ids[3]!)
      .execute();
    expect(await found('other.box')).toEqual([ids[3]]);
    const res = await post(
      t.app,
      '/index/fbox.miner/deleted',
      { area_id: areaId, ids: [ids[17]] },
      { token },
    );
    expect(res.json().code).toBe(1);
    expect(await found('KS0017')).toEqual([]);
    expect(await found('KS001')).toEqual(ids.slice(10, 20).filter((id) => id !== ids[17]));
  });
});
