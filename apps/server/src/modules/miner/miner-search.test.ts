import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp, testDbKind } from '../../test/build-test-app.js';
import { createFbox, createMiners, setMinerState } from '../../test/device-factories.js';
import { createArea, createMaster, get, login, post } from '../../test/factories.js';
import { waitFor } from '../../test/mqtt-client.js';
import { MinerService } from './miner.service.js';
import { trigramIndex } from './miner-trigram.migration.js';

/**
 * The list's keyword follows every change of a miner's worker, IP and SN (on SQLite through the
 * trigram index `miner_search` and its triggers; on PostgreSQL through `pg_trgm`'s index of the
 * same three, kept by PostgreSQL).
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
  const list = async (query: Record<string, string>, service: MinerService) => {
    t.app.miners = service;
    const res = await get(t.app, '/index/fbox.miner/index', { area_id: String(areaId), ...query }, { token });
    return res.json().data as { items: { id: number }[]; total: number };
  };

  it('pages a keyword the same whether its matches are read from the index or found walking the order', async () => {
    await t.app.db
      .updateTable('miner_readings')
      .set((eb) => ({ power_w: eb('miner_id', '%', 7) }))
      .execute();
    // Every match from the index, and none of them (each page found walking the order).
    const fromIndex = new MinerService(t.app, { keywordFew: Number.POSITIVE_INFINITY });
    const walking = new MinerService(t.app, { keywordFew: 0 });
    for (const keyword of ['KS001', 'rig2', '10.7.0.', 'KS0029', 'nothing'])
      for (const sort of [undefined, '-id', 'power_w', '-sn'])
        for (const page of ['1', '2', '3']) {
          const query = { keyword, page, limit: '4', ...(sort && { sort }) };
          const walked = await list(query, walking);
          expect(await list(query, fromIndex), JSON.stringify(query)).toEqual(walked);
          expect(await list(query, walking), JSON.stringify(query)).toEqual(walked);
        }
    expect((await list({ keyword: '10.7.0.', page: '9', limit: '4' }, fromIndex)).items).toEqual([]);
    expect((await list({ keyword: '10.7.0.', limit: '4' }, fromIndex)).total).toBe(30);
  });

  it.runIf(testDbKind === 'postgres')(
    "reads a keyword's matches from the trigram index of worker, IP and SN",
    async () => {
      // With reads of the whole table priced out of the plan (30 miners would be read whole).
      const plan = await t.app.db.connection().execute(async (db) => {
        await sql`set enable_seqscan = off`.execute(db);
        await sql`set enable_indexscan = off`.execute(db);
        const pattern = '%ks0017%';
        const explained = await sql<{ 'QUERY PLAN': string }>`explain select miner_id from miner_state
          where lower(worker) like ${pattern} or lower(ip) like ${pattern} or lower(sn) like ${pattern}
          order by miner_id`.execute(db);
        await sql`reset enable_seqscan`.execute(db);
        await sql`reset enable_indexscan`.execute(db);
        return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain(`Bitmap Index Scan on ${trigramIndex}`);
    },
  );

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
      // With the index emptied, only the rows can answer; a keyword not looked up before (what a
      // keyword found is kept for 5 s, see the next test).
      await sql`insert into miner_search (miner_search) values ('delete-all')`.execute(t.app.db);
      expect(await found('Rig17')).toEqual([]);
      expect(await found('g7')).toEqual([ids[7]]);
      await sql`insert into miner_search (miner_search) values ('rebuild')`.execute(t.app.db);
      t.clock.advance(31_000);
      expect(await found('Rig17')).toEqual([ids[17]]);
    },
  );

  it('keeps which miners a keyword matches for 5 s, and reads and tests their rows fresh', async () => {
    const rename = (id: number, worker: string) =>
      t.app.db.updateTable('miner_info').set({ worker }).where('miner_id', '=', id).execute();
    const before = [ids[1]!, ...ids.slice(10, 20)];
    expect(await found('Rig1')).toEqual(before);
    await rename(ids[12]!, 'acct.other');
    await rename(ids[3]!, 'acct.Rig1x');
    expect(await found('Rig1')).toEqual(before.filter((id) => id !== ids[12]));
    // Stale: answered as it was while the matches are looked up again.
    t.clock.advance(5000);
    expect(await found('Rig1')).toEqual(before.filter((id) => id !== ids[12]));
    // Looked up again in the background: the next requests get it once it is done (a loaded CI
    // machine's PostgreSQL took longer than a fixed 50 ms).
    const fresh = [ids[1], ids[3], ...ids.slice(10, 20).filter((id) => id !== ids[12])];
    await waitFor(async () => JSON.stringify(await found('Rig1')) === JSON.stringify(fresh));
    expect(await found('Rig1')).toEqual(fresh);
  });

  it('follows a changed worker, IP or SN, and forgets a deleted miner', async () => {
    await t.app.db
      .updateTable('miner_info')
      .set({ worker: 'other.box9', ip: '192.168.5.5' })
      .where('miner_id', '=', ids[3]!)
      .execute();
    expect(await found('acct.Rig3')).toEqual([]);
    expect(await found('other.box')).toEqual([ids[3]]);
    expect(await found('168.5.5')).toEqual([ids[3]]);
    // An update that leaves the three as they were.
    await setMinerState(t.app.db, { worker: 'other.box9', power_w: 1 }, ids[3]!);
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
