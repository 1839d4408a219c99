import { MinerListItemSchema } from '@fbox/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank } from '../../test/device-factories.js';
import { createArea, createMaster, get, login } from '../../test/factories.js';
import { MinerRepository } from './miner.repository.js';
import { minerItem } from './miner.service.js';

/**
 * The list's rows are JSON built by the database (`pageJson`), the export's are read as values and
 * mapped by `minerItem`. Both must give the same items, field for field and in the same key order,
 * for every kind of value: text that JSON must escape, missing tank and outlet, -999 readings,
 * fractions with 17 digits, epoch milliseconds, offline, low mode and the Lock Pool flag.
 */
describeDb('miner list JSON built by the database', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    const box = await createFbox(t.app, areaId, { name: 'Box "east" \\ 东区' });
    const tank = await createTank(t.app, box, 1, { name: 'Tank\t1 🛢' });
    const ids = await createMiners(t.app, box, [
      {
        sn: 'SN-QUOTE',
        worker: 'acct."w\\1"\n',
        model: 'S19 Pro',
        pool: '矿池',
        pool_address: 'stratum+tcp://btc.example:3333',
        tank_id: tank,
        outlet: 7,
        online: 1,
        mode: 'low',
        fault: 'fan',
        chip_avg_temp: 0.1 + 0.2,
        chip_max_temp: 81.25,
        hashrate_theoretical: 110,
        hashrate_realtime: 106.69999999999999,
        hashrate_avg: 1e-7,
        hashrate_24h: 123456789.125,
        power_w: 3250,
        uptime_s: 3_000_000,
        updated_at: 1_763_700_000_123,
      },
      { sn: 'SN-EMPTY' },
      { sn: 'SN-HIJACKED', worker: 'thief.1', pool_address: 'stratum+tcp://evil:1', online: 1 },
    ]);
    // Lock Pool on, and the third miner's configured pool differs from what it reports.
    await t.app.db.updateTable('users').set({ pool_locked: 1 }).where('id', '=', master.id).execute();
    await t.app.db
      .insertInto('miner_pool_configs')
      .values({ miner_id: ids[2]!, pool_address: 'stratum+tcp://good:1', worker: 'mine.1', updated_at: 1 })
      .execute();
  });
  afterAll(() => t.close());

  it('answers the same items as the rows the export maps', async () => {
    const res = await get(
      t.app,
      '/index/fbox.miner/index',
      { area_id: String(areaId), sort: 'id' },
      { token },
    );
    const listed = res.json().data.items as Record<string, unknown>[];
    const rows = await new MinerRepository(t.app.db, t.app.dbDialect).page(
      { area_id: areaId, sort: 'id' },
      20,
      0,
    );
    const mapped = rows.map(minerItem);
    expect(listed).toEqual(mapped);
    for (const [i, item] of listed.entries()) expect(Object.keys(item)).toEqual(Object.keys(mapped[i]!));
    for (const item of listed) MinerListItemSchema.strict().parse(item);
    expect(listed.map((m) => [m.sn, m.pool_hijacked, m.tank_name, m.status, m.mode])).toEqual([
      ['SN-QUOTE', false, 'Tank\t1 🛢', 'online', 'low'],
      ['SN-EMPTY', false, null, 'offline', 'high'],
      ['SN-HIJACKED', true, null, 'online', 'high'],
    ]);
    expect(listed[0]).toMatchObject({
      worker: 'acct."w\\1"\n',
      fbox_name: 'Box "east" \\ 东区',
      chip_avg_temp: 0.1 + 0.2,
    });
  });

  it('answers an empty page as an empty list', async () => {
    const res = await get(
      t.app,
      '/index/fbox.miner/index',
      { area_id: String(areaId), keyword: 'nothing-matches' },
      { token },
    );
    expect(res.json().data).toEqual({ items: [], total: 0, page: 1, limit: 20 });
    const past = await get(
      t.app,
      '/index/fbox.miner/index',
      { area_id: String(areaId), page: '5' },
      { token },
    );
    expect(past.json().data).toMatchObject({ items: [], total: 3, page: 5 });
  });
});
