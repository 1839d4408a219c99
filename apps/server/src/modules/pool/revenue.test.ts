import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Code } from '@fbox/contracts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, fboxHourRow, type TestFbox } from '../../test/device-factories.js';
import {
  createArea,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';
import { recomputeMeterTotals } from '../electricity/meter-energy-totals.migration.js';
import { hashprice } from './revenue.service.js';

const hour = 3_600_000;
const SETTINGS = '/index/fbox.statistic/revenue_setting';
const SAVE = '/index/fbox.statistic/set_revenue_setting';
const REVENUE = '/index/fbox.statistic/revenue';
const EXPORT = '/index/fbox.statistic/revenue_export';

/** Demo-like settings: 126 T difficulty, 3.15 BTC a block, 95,000 USD a coin. */
const settings = {
  coin: 'BTC',
  network_difficulty: '126000000000000',
  block_reward: '3.15',
  coin_price: '95000',
  fiat: 'USD',
};

/** A local HTTP server answering the price address: `answer` decides each reply. */
const priceServer = async (answer: () => { status: number; body: string }) => {
  const server: Server = createServer((_req, res) => {
    const { status, body } = answer();
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/simple/price`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

describe('hashprice', () => {
  it('is block reward × 86400 × 10^12 / (difficulty × 2^32) coin per TH/s and day', () => {
    // 3.15 BTC, difficulty 126 T: about 0.000000503 BTC per TH/s and day.
    expect(hashprice(3.15, 126e12)).toBeCloseTo(5.0293e-7, 10);
    // Twice the difficulty halves it; twice the reward doubles it.
    expect(hashprice(3.15, 252e12)).toBeCloseTo(hashprice(3.15, 126e12) / 2, 15);
    expect(hashprice(6.3, 126e12)).toBeCloseTo(hashprice(3.15, 126e12) * 2, 15);
  });
});

describeDb('revenue: settings, daily figures by source, hashrate per subaccount', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let box: TestFbox;
  let subaccountId: number;

  beforeEach(async () => {
    t = await buildTestApp();
    t.clock.ms = Date.UTC(2026, 10, 25, 12);
    master = await createMaster(t.app);
    await t.app.db.updateTable('users').set({ time_zone: 'UTC+8' }).where('id', '=', master.id).execute();
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    await t.app.db.updateTable('areas').set({ electricity_price: 0.05 }).where('id', '=', areaId).execute();
    await t.app.db
      .updateTable('electricity_prices')
      .set({ price: 0.05 })
      .where('area_id', '=', areaId)
      .execute();
    box = await createFbox(t.app, areaId, { name: 'North' });
    const caller = { id: master.id, isMaster: true, parentId: null, role: 'master', area: null } as const;
    subaccountId = (
      await t.app.pools.saveSubaccount(caller, {
        area_id: areaId,
        pool: 'Braiins Pool',
        subaccount: 'Acme',
        coin: 'BTC',
      })
    ).id;
  });
  afterEach(() => t.close());

  const save = (body: Record<string, unknown>, as = token) =>
    post(t.app, SAVE, { area_id: areaId, ...body }, { token: as, form: true }).then((r) => r.json());
  const revenue = (from_day: string, to_day: string, as = token) =>
    get(t.app, REVENUE, { area_id: String(areaId), from_day, to_day }, { token: as }).then((r) => r.json());

  const earn = (dayText: string, amount: string, coin = 'BTC', id = subaccountId) =>
    t.app.db
      .insertInto('pool_earnings')
      .values({ subaccount_id: id, area_id: areaId, day: dayText, coin, amount, synced_at: 0 })
      .execute();
  const boxHour = (ts: number, ths: number) =>
    t.app.db
      .insertInto('fbox_samples_1h')
      .values(fboxHourRow(box.id, ts, { avg: 1 }, ths, { temperature: 1, humidity: 1 }))
      .execute();
  const energyHour = async (ts: number, kwh: number) => {
    await t.app.db
      .insertInto('meter_energy_hourly')
      .values({
        fbox_id: box.id,
        no: 1,
        hour_ts: ts,
        energy_kwh: kwh,
        resets: 0,
        readings: 2,
        first_ts: ts,
        first_reading: 0,
        last_ts: ts + 1000,
        last_reading: kwh,
        sensor_ratio: 1,
      })
      .execute();
    await recomputeMeterTotals(t.app.db);
  };

  it('answers defaults before a save, then the saved settings with their hashprice', async () => {
    const before = await get(t.app, SETTINGS, { area_id: String(areaId) }, { token }).then((r) => r.json());
    expect(before.data).toMatchObject({
      coin: 'BTC',
      fiat: 'USD',
      network_difficulty: null,
      hashprice: null,
    });
    const saved = await save(settings);
    expect(saved.code).toBe(Code.OK);
    expect(saved.data).toMatchObject({
      coin: 'BTC',
      network_difficulty: 126e12,
      block_reward: 3.15,
      coin_price: 95000,
      fiat: 'USD',
      price_url: '',
      updated_at: t.clock.ms,
    });
    expect(saved.data.hashprice).toBeCloseTo(hashprice(3.15, 126e12), 15);
  });

  it('refuses bad settings on their field and keeps what was stored', async () => {
    await save(settings);
    for (const [field, value] of [
      ['network_difficulty', '0'],
      ['network_difficulty', '-5'],
      ['block_reward', '1000'],
      ['coin_price', 'abc'],
      ['coin', 'DOGE'],
      ['fiat', 'XYZ'],
      ['price_url', 'ftp://prices.example.com'],
    ] as const) {
      const answer = await save({ ...settings, [field]: value });
      expect(answer.code, `${field}=${value}`).toBe(Code.VALIDATION);
      expect(answer.data.errors[0].field).toBe(field);
    }
    const stored = await get(t.app, SETTINGS, { area_id: String(areaId) }, { token }).then((r) => r.json());
    expect(stored.data).toMatchObject({ network_difficulty: 126e12, block_reward: 3.15, coin_price: 95000 });
  });

  it('takes pool credits where they exist, estimates other days from the hashrate, values and costs them', async () => {
    await save(settings);
    const hp = hashprice(3.15, 126e12);
    // Reader's zone UTC+8: local 2026-11-21 runs from 2026-11-20 16:00 UTC.
    const local21 = Date.UTC(2026, 10, 20, 16);
    await earn('2026-11-20', '0.00061081');
    const caller = { id: master.id, isMaster: true, parentId: null, role: 'master', area: null } as const;
    const litecoin = await t.app.pools.saveSubaccount(caller, {
      area_id: areaId,
      pool: 'Braiins Pool',
      subaccount: 'Acme',
      coin: 'LTC',
    });
    await earn('2026-11-20', '0.5', 'LTC', litecoin.id); // another coin: not counted
    // 12 hours of 100 TH/s on the 21st; one hour at its last hour and one at the next day's first.
    for (let h = 0; h < 12; h++) await boxHour(local21 + h * hour, 100);
    await boxHour(local21 + 23 * hour, 240);
    await boxHour(local21 + 24 * hour, 48);
    // The pool day has miner readings too: the pool's figure wins.
    await boxHour(local21 - hour, 500);
    await energyHour(local21 + hour, 100);
    await energyHour(local21 - hour, 40);

    const answer = await revenue('2026-11-20', '2026-11-23');
    expect(answer.code).toBe(Code.OK);
    const { days, totals } = answer.data;
    expect(days.map((d: { day: string; source: string }) => [d.day, d.source])).toEqual([
      ['2026-11-20', 'pool'],
      ['2026-11-21', 'estimated'],
      ['2026-11-22', 'estimated'],
      ['2026-11-23', 'none'],
    ]);
    expect(days[0]).toMatchObject({ pool_coin: 0.00061081, coin: 0.00061081, estimated_coin: null });
    expect(days[0].fiat).toBeCloseTo(0.00061081 * 95000, 2);
    expect(days[0]).toMatchObject({ energy_kwh: 40, power_cost: 2 });
    expect(days[0].profit).toBeCloseTo(days[0].fiat - 2, 2);
    const est21 = ((12 * 100 + 240) * hp) / 24;
    expect(days[1].estimated_coin).toBeCloseTo(est21, 8);
    expect(days[1].miner_hashrate).toBeCloseTo((12 * 100 + 240) / 13, 3);
    expect(days[1]).toMatchObject({ energy_kwh: 100, power_cost: 5 });
    expect(days[2].estimated_coin).toBeCloseTo((48 * hp) / 24, 8);
    expect(days[2]).toMatchObject({ power_cost: null, profit: null });
    expect(days[3]).toMatchObject({ coin: null, fiat: null, profit: null });
    expect(totals).toMatchObject({
      pool_days: 1,
      estimated_days: 2,
      none_days: 1,
      power_cost: 7,
      energy_kwh: 140,
    });
    expect(totals.coin).toBeCloseTo(0.00061081 + est21 + (48 * hp) / 24, 8);
    expect(answer.data.time_zone).toBe('UTC+8');
  });

  it('without settings: pool days are counted, nothing is estimated or valued', async () => {
    await earn('2026-11-20', '0.5');
    await boxHour(Date.UTC(2026, 10, 21, 0), 100);
    const { days } = (await revenue('2026-11-20', '2026-11-21')).data;
    expect(days[0]).toMatchObject({ source: 'pool', coin: 0.5, fiat: null });
    expect(days[1]).toMatchObject({ source: 'none', estimated_coin: null, miner_hashrate: 100 });
  });

  it("puts each subaccount's pool-side and miner-side hashrate side by side with the gap", async () => {
    const [worker1, worker2] = await createMiners(t.app, box, [
      { sn: 'A1', worker: 'acme.1x1' },
      { sn: 'A2', worker: 'ACME.1x2' },
    ]);
    await createMiners(t.app, box, [{ sn: 'B1', worker: 'other.1x1' }]);
    const at = Date.UTC(2026, 10, 25, 2);
    for (const [id, ths] of [
      [worker1!, 100],
      [worker2!, 100],
    ] as const)
      await t.app.db
        .insertInto('miner_samples_1h')
        .values({
          miner_id: id,
          bucket_ts: at,
          samples: 60,
          hashrate_avg: ths,
          hashrate_min: ths,
          hashrate_max: ths,
          power_w_avg: 1,
          power_w_min: 1,
          power_w_max: 1,
          chip_max_temp_avg: 1,
          chip_max_temp_min: 1,
          chip_max_temp_max: 1,
        })
        .execute();
    const pool = (ts: number, ths: number) =>
      t.app.db
        .insertInto('pool_hashrate')
        .values({
          subaccount_id: subaccountId,
          area_id: areaId,
          ts,
          realtime_ths: ths,
          hour_ths: ths,
          day_ths: ths,
          active_workers: 2,
        })
        .execute();
    await pool(at + 10 * 60_000, 180);
    await pool(at + 20 * 60_000, 190);
    await pool(at + hour, 170); // an hour the miners have no reading: not in the gap
    const [sub] = (await revenue('2026-11-25', '2026-11-25')).data.subaccounts;
    expect(sub).toMatchObject({ id: subaccountId, subaccount: 'Acme', miner_count: 2, has_api_key: false });
    expect(sub.points).toEqual([
      { ts: at, pool: 185, miners: 200 },
      { ts: at + hour, pool: 170, miners: null },
    ]);
    expect(sub.gap_pct).toBe(7.5);
  });

  it('refuses ranges that run backwards, are too long or are not days', async () => {
    for (const [from, to] of [
      ['2026-11-21', '2026-11-20'],
      ['2025-01-01', '2026-11-20'],
      ['2026-02-30', '2026-03-01'],
      ['20261101', '2026-11-02'],
    ]) {
      const answer = await revenue(from!, to!);
      expect(answer.code, `${from}…${to}`).toBe(Code.VALIDATION);
    }
  });

  it('exports the daily table with the figures the endpoint answers', async () => {
    await save(settings);
    await earn('2026-11-20', '0.001');
    const res = await get(
      t.app,
      EXPORT,
      { area_id: String(areaId), from_day: '2026-11-20', to_day: '2026-11-21', format: 'csv' },
      { token },
    );
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Day,Source,Pool-reported (BTC),Estimated (BTC),Earned (BTC),Miner hashrate (TH/s),Value (USD),Energy (kWh),Power cost (USD),Profit (USD)',
    );
    expect(lines.slice(1)).toEqual([
      '2026-11-20,Pool-reported,0.001,,0.001,,95,,,',
      '2026-11-21,No data,,,,,,,,',
    ]);
    const xlsx = await get(
      t.app,
      EXPORT,
      { area_id: String(areaId), from_day: '2026-11-20', to_day: '2026-11-21', format: 'xlsx' },
      { token, headers: { lang: 'zh-cn' } },
    );
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('lets operators read but not write, and hides other mines', async () => {
    const operator = await createSubAccount(t.app, master, [areaId], { authority: 'operator' });
    const opToken = await login(t.app, operator);
    expect((await revenue('2026-11-20', '2026-11-20', opToken)).code).toBe(Code.OK);
    expect((await save(settings, opToken)).code).toBe(Code.FORBIDDEN);
    const administrator = await createSubAccount(t.app, master, [areaId], { authority: 'administrator' });
    const adminToken = await login(t.app, administrator);
    expect((await save(settings, adminToken)).code).toBe(Code.OK);
    const other = await createMaster(t.app);
    const otherToken = await login(t.app, other);
    expect((await revenue('2026-11-20', '2026-11-20', otherToken)).code).toBe(Code.NOT_FOUND);
    expect((await save(settings, otherToken)).code).toBe(Code.NOT_FOUND);
    const elsewhere = await createArea(t.app, master.id);
    const notManaged = await post(
      t.app,
      SAVE,
      { area_id: elsewhere.id, ...settings },
      { token: adminToken },
    ).then((r) => r.json());
    expect(notManaged.code).toBe(Code.NOT_FOUND);
  });

  describe('price address', () => {
    let reply = { status: 200, body: '{"bitcoin":{"usd":97123.5}}' };
    let server: Awaited<ReturnType<typeof priceServer>>;
    beforeAll(async () => {
      server = await priceServer(() => reply);
    });
    afterAll(() => server.close());

    it('reads the price at save and again when due; a failure keeps the last price and says why', async () => {
      reply = { status: 200, body: '{"bitcoin":{"usd":97123.5}}' };
      const saved = await save({ ...settings, price_url: server.url });
      expect(saved.data).toMatchObject({
        coin_price: 97123.5,
        price_fetched_at: t.clock.ms,
        price_error: null,
      });

      reply = { status: 503, body: '{"status":"down"}' };
      t.clock.ms += 11 * 60_000;
      expect(await t.app.revenue.readDuePrices()).toBe(1);
      let stored = (await get(t.app, SETTINGS, { area_id: String(areaId) }, { token }).then((r) => r.json()))
        .data;
      expect(stored).toMatchObject({ coin_price: 97123.5, price_error: 'the address answered HTTP 503' });
      // Not due again until 10 minutes later.
      expect(await t.app.revenue.readDuePrices()).toBe(0);

      reply = { status: 200, body: '{"price": 88000}' };
      t.clock.ms += 11 * 60_000;
      expect(await t.app.revenue.readDuePrices()).toBe(1);
      stored = (await get(t.app, SETTINGS, { area_id: String(areaId) }, { token }).then((r) => r.json()))
        .data;
      expect(stored).toMatchObject({ coin_price: 88000, price_error: null, price_fetched_at: t.clock.ms });

      reply = { status: 200, body: '{"bitcoin":{"eur":1}}' };
      const wrongShape = await save({ ...settings, price_url: server.url });
      expect(wrongShape.data.price_error).toBe('the answer has no bitcoin.usd (or price) number above 0');
      reply = { status: 200, body: '<html>' };
      t.clock.ms += 11 * 60_000;
      await t.app.revenue.readDuePrices();
      stored = (await get(t.app, SETTINGS, { area_id: String(areaId) }, { token }).then((r) => r.json()))
        .data;
      expect(stored.price_error).toBe('the answer is not JSON');
    });

    it('names an address that does not answer', async () => {
      const closed = await priceServer(() => reply);
      await closed.close();
      const saved = await save({ ...settings, price_url: closed.url });
      expect(saved.code).toBe(Code.OK);
      expect(saved.data.price_error).toMatch(/^cannot reach the address/);
      expect(saved.data.coin_price).toBe(95000);
    });
  });
});
