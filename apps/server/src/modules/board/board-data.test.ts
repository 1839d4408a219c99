import { Code, topics } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { fboxHourRow } from '../../test/device-factories.js';
import {
  createArea,
  createFbox,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';
import { telemetry } from '../../test/mqtt-client.js';

const hour = 3_600_000;

describeDb('data boards: per-FBOX hashrate, the mine’s revenue, the new data board', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let boxA: CreatedFbox;
  let boxB: CreatedFbox;

  beforeEach(async () => {
    t = await buildTestApp();
    // 2026-11-25 12:00 UTC: 20:00 on the 25th in the owner's zone, UTC+8.
    t.clock.ms = Date.UTC(2026, 10, 25, 12);
    master = await createMaster(t.app);
    await t.app.db.updateTable('users').set({ time_zone: 'UTC+8' }).where('id', '=', master.id).execute();
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    boxA = await createFbox(t.app, areaId, { name: 'Box A' });
    boxB = await createFbox(t.app, areaId, { name: 'Box B' });
  });
  afterEach(() => t.close());

  const save = async (body: Record<string, unknown>) =>
    (
      await post(
        t.app,
        '/index/fbox.board/save',
        { area_id: areaId, type: 'dataBoard', title: 'Figures', ...body },
        { token },
      )
    ).json();
  const data = async (id: number, tk = token) =>
    (
      await get(t.app, '/index/fbox.board/data', { area_id: String(areaId), id: String(id) }, { token: tk })
    ).json();
  const report = async (box: CreatedFbox, hashrate: number) => {
    const msg = telemetry({ seq: 1, ts: t.clock.ms, miners: 2, hashrate, snPrefix: box.device_id });
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await t.app.ingest.flush();
  };
  const boxHour = (box: CreatedFbox, ts: number, ths: number) =>
    t.app.db
      .insertInto('fbox_samples_1h')
      .values(fboxHourRow(box.id, ts, { avg: 1 }, ths, { temperature: 1, humidity: 1 }))
      .execute();

  it('gives each covered FBOX its realtime hashrate, and no revenue to a mine without any', async () => {
    await report(boxA, 100);
    const board = (await save({})).data;
    const answer = await data(board.id);
    expect(answer.code, answer.msg).toBe(Code.OK);
    // Box A: 2 miners at 100 TH/s; box B never reported.
    expect(answer.data.fboxes).toEqual([
      { id: boxA.id, name: 'Box A', online: true, hashrate: 200 },
      { id: boxB.id, name: 'Box B', online: false, hashrate: 0 },
    ]);
    expect(answer.data.revenue).toBeUndefined();
  });

  it('shows the mine’s revenue today and yesterday: pool-credited or estimated, in coin and fiat', async () => {
    const saved = await post(
      t.app,
      '/index/fbox.statistic/set_revenue_setting',
      {
        area_id: areaId,
        coin: 'BTC',
        network_difficulty: '126000000000000',
        block_reward: '3.15',
        coin_price: '95000',
        fiat: 'USD',
        price_url: '',
      },
      { token, form: true },
    );
    expect(saved.json().code, saved.json().msg).toBe(Code.OK);
    const caller = { id: master.id, isMaster: true, parentId: null, role: 'master', area: null } as const;
    const sub = await t.app.pools.saveSubaccount(caller, {
      area_id: areaId,
      pool: 'Braiins Pool',
      subaccount: 'Acme',
      coin: 'BTC',
    });
    // Yesterday (the 24th) the pool credited 0.00061081 BTC.
    await t.app.db
      .insertInto('pool_earnings')
      .values({
        subaccount_id: sub.id,
        area_id: areaId,
        day: '2026-11-24',
        coin: 'BTC',
        amount: '0.00061081',
        synced_at: 0,
      })
      .execute();
    // Today (from 2026-11-24 16:00 UTC) two hours of 120 TH/s on box B, which the board does not
    // cover: revenue is the whole mine's.
    const today = Date.UTC(2026, 10, 24, 16);
    await boxHour(boxB, today, 120);
    await boxHour(boxB, today + hour, 120);
    const board = (await save({ type: 'dataBoardNew', fbox_ids: [boxA.id] })).data;
    const answer = await data(board.id);
    expect(answer.code, answer.msg).toBe(Code.OK);
    // Hashprice: 3.15 × 86400 × 10^12 / (126 × 10^12 × 2^32) BTC per TH/s and day; each hour earns
    // its hashrate × hashprice / 24: 2 × 120 × hashprice / 24 = 10 × hashprice.
    const hashprice = (3.15 * 86_400) / (126 * 2 ** 32);
    const coin = Math.round(10 * hashprice * 1e8) / 1e8;
    expect(answer.data.revenue).toEqual({
      coin: 'BTC',
      fiat: 'USD',
      time_zone: 'UTC+8',
      yesterday: { day: '2026-11-24', source: 'pool', coin: 0.00061081, fiat: 58.03 },
      today: {
        day: '2026-11-25',
        source: 'estimated',
        coin,
        fiat: Math.round(coin * 95_000 * 100) / 100,
      },
    });
    expect(coin).toBe(0.00000503);
    // An operator of the mine and the board's kiosk link see the same.
    const operator = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    expect((await data(board.id, operator)).data.revenue).toEqual(answer.data.revenue);
    const made = (
      await post(t.app, '/index/fbox.board/kiosk_create', { area_id: areaId, id: board.id }, { token })
    ).json();
    const kiosk = (await get(t.app, '/index/fbox.board/kiosk_data', { token: made.data.token })).json();
    expect(kiosk.code, kiosk.msg).toBe(Code.OK);
    expect(kiosk.data.board.type).toBe('dataBoardNew');
    expect(kiosk.data.revenue).toEqual(answer.data.revenue);
    expect((await get(t.app, '/index/fbox.board/kiosk_miners', { token: made.data.token })).json().code).toBe(
      Code.NOT_FOUND,
    );
  });
});
