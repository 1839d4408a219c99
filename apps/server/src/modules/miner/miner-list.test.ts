import { type MinerListItem, minerSortFields } from '@fbox/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank, type MinerSeed, prng } from '../../test/device-factories.js';
import { createArea, createMaster, get, login } from '../../test/factories.js';

const LIST = '/index/fbox.miner/index';
const pad = (n: number, width: number) => String(n).padStart(width, '0');

/**
 * The miner list against a brute-force oracle: 300 seeded miners, generated filters, sorts and pages;
 * the API's page must equal filtering and sorting the full list in memory (ties broken by id in
 * the sort's direction).
 */
describeDb('miner list (fbox.miner/index) against an in-memory oracle', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let all: MinerListItem[];
  let fboxIds: number[];
  let tankIds: number[];

  beforeAll(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    const rng = prng(20_250_101);
    const boxes = [
      await createFbox(t.app, areaId, { name: 'Box B' }),
      await createFbox(t.app, areaId, { name: 'Box A' }),
    ];
    fboxIds = boxes.map((b) => b.id);
    tankIds = [
      await createTank(t.app, boxes[0]!, 1, { name: 'Tank 2' }),
      await createTank(t.app, boxes[0]!, 2, { name: 'Tank 1' }),
    ];
    tankIds.push(await createTank(t.app, boxes[1]!, 1, { name: 'Tank 3' }));
    const tankOf = (box: number) => (box === 0 ? [tankIds[0]!, tankIds[1]!, null] : [tankIds[2]!, null]);
    for (const [b, box] of boxes.entries()) {
      const seeds: MinerSeed[] = Array.from({ length: 150 }, (_, i) => ({
        sn: `SN${pad(b * 1000 + rng.int(0, 400), 5)}${i}`,
        worker: `acct_${rng.pick(['a', 'b'])}.w${pad(rng.int(0, 60), 3)}`,
        model: rng.pick(['S19', 'S21', 'M30S']),
        brand: rng.pick(['bitmain', 'whatsminer']),
        pool: rng.pick(['btc.com', 'f2pool', 'antpool']),
        pool_address: `stratum+tcp://${rng.pick(['btc.com', 'f2pool.com'])}:${rng.pick([3333, 443])}`,
        ip: `10.0.${pad(rng.int(0, 3), 3)}.${pad(rng.int(0, 250), 3)}`,
        firmware: rng.pick(['2024.01', '2024.06']),
        tank_id: rng.pick(tankOf(b)),
        outlet: rng.pick([null, 1, 2, 3, 4]),
        online: rng.int(0, 1),
        mode: rng.pick(['high', 'low']),
        fault: rng.pick(['', '', '', 'fan', 'chain', 'temp_high']),
        chip_avg_temp: rng.pick([-999, 60, 65.5, 70]),
        chip_max_temp: rng.pick([-999, 75, 80, 82.5]),
        hashrate_theoretical: rng.pick([-999, 95, 110, 200]),
        hashrate_realtime: rng.pick([-999, 0, 95.5, 100, 110.25]),
        hashrate_avg: rng.int(90, 110),
        hashrate_24h: rng.int(90, 110),
        power_w: rng.pick([3000, 3250, 3500]),
        uptime_s: rng.int(0, 5) * 3600,
        updated_at: t.clock.now() - rng.int(0, 3) * 1000,
      }));
      await createMiners(t.app, box, seeds);
    }
    // Miners of another master's mine must never show up.
    const other = await createMaster(t.app);
    const otherBox = await createFbox(t.app, (await createArea(t.app, other.id)).id);
    await createMiners(t.app, otherBox, [{ sn: 'SN-OTHER', worker: 'acct_a.w001' }]);
    const full = (await get(t.app, LIST, { area_id: String(areaId), limit: '500' }, { token })).json();
    expect(full.data.total).toBe(300);
    all = full.data.items;
  });
  afterAll(() => t.close());

  type Query = Record<string, string>;

  const matches = (m: MinerListItem, q: Query): boolean => {
    if (q.fbox_id && m.fbox_id !== Number(q.fbox_id)) return false;
    if (q.tank_id && m.tank_id !== Number(q.tank_id)) return false;
    if (q.status && m.status !== q.status) return false;
    if (q.model && m.model !== q.model) return false;
    if (q.brand && m.brand !== q.brand) return false;
    if (q.pool && m.pool !== q.pool) return false;
    if (q.mode && m.mode !== q.mode) return false;
    if (q.fault === 'any' && m.fault === '') return false;
    if (q.fault === 'none' && m.fault !== '') return false;
    if (q.fault && q.fault !== 'any' && q.fault !== 'none' && m.fault !== q.fault) return false;
    if (q.under_pct) {
      const reported = m.hashrate_realtime >= 0 && m.hashrate_theoretical > 0;
      if (m.status !== 'online' || !reported) return false;
      if (m.hashrate_realtime * 100 >= m.hashrate_theoretical * Number(q.under_pct)) return false;
    }
    if (q.keyword) {
      const k = q.keyword.toLowerCase();
      if (![m.worker, m.ip, m.sn].some((v) => v.toLowerCase().includes(k))) return false;
    }
    return true;
  };

  const compare = (field: string, descending: boolean) => (a: MinerListItem, b: MinerListItem) => {
    const key = (field === 'id' ? 'id' : field) as keyof MinerListItem;
    const av = a[key];
    const bv = b[key];
    let order = 0;
    // Missing values (no tank, no outlet) sort as the largest.
    if (av === null || bv === null) order = av === bv ? 0 : av === null ? 1 : -1;
    else if (typeof av === 'number' && typeof bv === 'number') order = av - bv;
    else order = String(av) < String(bv) ? -1 : String(av) > String(bv) ? 1 : 0;
    if (descending) order = -order;
    return order || (descending ? b.id - a.id : a.id - b.id);
  };

  it('pages, filters and sorts exactly like the oracle', async () => {
    const rng = prng(7);
    for (let round = 0; round < 80; round++) {
      const q: Query = { area_id: String(areaId) };
      if (rng.next() < 0.3) q.fbox_id = String(rng.pick(fboxIds));
      if (rng.next() < 0.2) q.tank_id = String(rng.pick(tankIds));
      if (rng.next() < 0.3) q.status = rng.pick(['online', 'offline']);
      if (rng.next() < 0.2) q.model = rng.pick(['S19', 'S21', 'M30S', 'nope']);
      if (rng.next() < 0.15) q.brand = rng.pick(['bitmain', 'whatsminer']);
      if (rng.next() < 0.15) q.pool = rng.pick(['btc.com', 'f2pool', 'antpool']);
      if (rng.next() < 0.2) q.mode = rng.pick(['high', 'low']);
      if (rng.next() < 0.25) q.fault = rng.pick(['any', 'none', 'fan', 'chain']);
      if (rng.next() < 0.25) q.under_pct = String(rng.pick([50, 90, 95, 100]));
      if (rng.next() < 0.2) q.keyword = rng.pick(['ACCT_A', '.w01', '_b', '10.0.002', 'sn0', '%', 'w05']);
      const field = rng.pick(minerSortFields);
      const descending = rng.next() < 0.5;
      q.sort = `${descending ? '-' : ''}${field}`;
      q.limit = String(rng.pick([1, 7, 20, 50]));
      const expected = all.filter((m) => matches(m, q)).sort(compare(field, descending));
      const pages = Math.max(1, Math.ceil(expected.length / Number(q.limit)));
      q.page = String(rng.int(1, pages + 1));
      const res = (await get(t.app, LIST, q, { token })).json();
      expect(res.code, JSON.stringify(q)).toBe(1);
      const start = (Number(q.page) - 1) * Number(q.limit);
      expect(res.data.total, JSON.stringify(q)).toBe(expected.length);
      expect(
        res.data.items.map((m: MinerListItem) => m.id),
        JSON.stringify(q),
      ).toEqual(expected.slice(start, start + Number(q.limit)).map((m) => m.id));
    }
  });

  it('rejects unknown sorts, bad filters and oversized pages', async () => {
    const bad = async (query: Query) =>
      (await get(t.app, LIST, { area_id: String(areaId), ...query }, { token })).json();
    expect(await bad({ sort: 'password' })).toMatchObject({
      code: -2,
      data: { errors: [{ field: 'sort' }] },
    });
    expect(await bad({ sort: 'id; drop table miners' })).toMatchObject({ code: -2 });
    expect(await bad({ limit: '501' })).toMatchObject({ code: -2, data: { errors: [{ field: 'limit' }] } });
    expect(await bad({ status: 'sleeping' })).toMatchObject({
      code: -2,
      data: { errors: [{ field: 'status' }] },
    });
    expect(await bad({ fbox_id: 'x' })).toMatchObject({ code: -2, msg: 'FBOX: is invalid' });
    for (const under_pct of ['0', '101', '90.5', 'x'])
      expect(await bad({ under_pct })).toMatchObject({
        code: -2,
        data: { errors: [{ field: 'under_pct' }] },
      });
    expect((await get(t.app, LIST, { limit: '5' }, { token })).json()).toMatchObject({
      code: -2,
      msg: 'Mine: is required',
    });
  });
});
