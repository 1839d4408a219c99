import { Code, topics } from '@fbox/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';
import { telemetry } from '../../test/mqtt-client.js';
import { judgeMiner } from './board-test.service.js';

const hour = 3_600_000;
const minute = 60_000;

describe('judgeMiner', () => {
  const criteria = { pass_ratio: 90, max_chip_temp: 85 };
  const sums = (reach: number, hashrate: number, theoretical: number) => ({
    miner_id: 1,
    cover_s: 3600,
    reach_s: reach,
    hashrate_s: hashrate * reach,
    theo_s: theoretical * 3600,
  });

  it('passes at the ratio and the chip limit exactly, fails just past either', () => {
    expect(judgeMiner(sums(3600, 99, 110), 85, 0, criteria)).toMatchObject({
      ratio: 90,
      verdict: 'pass',
      failed: [],
    });
    expect(judgeMiner(sums(3600, 98.9, 110), 85.1, 0, criteria)).toMatchObject({
      ratio: 89.9,
      verdict: 'fail',
      failed: ['hashrate', 'temperature'],
    });
  });

  it('has no data without a report, and fails a reporting miner whose theoretical is unknown', () => {
    expect(judgeMiner(undefined, undefined, 110, criteria)).toEqual({
      hashrate: null,
      theoretical: 110,
      ratio: null,
      chip_max_temp: null,
      reported: 0,
      verdict: 'no_data',
      failed: [],
    });
    expect(judgeMiner(sums(1800, 100, 0), 60, 0, criteria)).toMatchObject({
      hashrate: 100,
      theoretical: null,
      reported: 0.5,
      verdict: 'fail',
      failed: ['hashrate'],
    });
  });
});

describeDb('miner commissioning board (fbox.board/test)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let boxA: CreatedFbox;
  let boxB: CreatedFbox;

  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
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
        { area_id: areaId, type: 'minerBoardTest', title: 'Commissioning', ...body },
        { token },
      )
    ).json();
  const test = async (id: number) =>
    (
      await get(t.app, '/index/fbox.board/test', { area_id: String(areaId), id: String(id) }, { token })
    ).json();
  const report = async (box: CreatedFbox) => {
    const msg = telemetry({ seq: 1, ts: t.clock.ms, miners: 3, snPrefix: box.device_id });
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await t.app.ingest.flush();
  };
  const minerId = async (sn: string) =>
    (await t.app.db.selectFrom('miners').select('id').where('sn', '=', sn).executeTakeFirstOrThrow()).id;

  it('refuses test options out of range on their field, never changing them; keeps them on edit', async () => {
    for (const [field, value, message] of [
      ['test_hours', 0, 'must be a number from 1 to 168'],
      ['test_hours', 169, 'must be a number from 1 to 168'],
      ['test_hours', 1.5, 'must be a number from 1 to 168'],
      ['pass_ratio', 49, 'must be a number from 50 to 100'],
      ['max_chip_temp', 121, 'must be a number from 50 to 120'],
    ] as const) {
      const refused = await save({ [field]: value });
      expect(refused.code).toBe(Code.VALIDATION);
      expect(refused.data.errors[0]).toMatchObject({ field, message });
    }
    expect(await t.app.db.selectFrom('boards').selectAll().execute()).toEqual([]);
    const made = (await save({})).data;
    expect(made).toMatchObject({ test_hours: 24, pass_ratio: 90, max_chip_temp: 85 });
    const edited = (await save({ id: made.id, test_hours: '168', pass_ratio: 100, max_chip_temp: 50 })).data;
    expect(edited).toMatchObject({ test_hours: 168, pass_ratio: 100, max_chip_temp: 50 });
  });

  it('judges each covered miner over the window from the rollups: pass, fail with its criteria, no data', async () => {
    // 2025-01-01 00:30: a 3-hour window is 22:00 → now, the current hour as far as it has gone.
    t.clock.advance(30 * minute);
    const now = t.clock.ms;
    const h0 = now - 30 * minute;
    await report(boxA);
    await report(boxB);
    const [good, poor, silent, elsewhere] = await Promise.all(
      [`${boxA.device_id}-0`, `${boxA.device_id}-1`, `${boxA.device_id}-2`, `${boxB.device_id}-0`].map(
        minerId,
      ),
    );
    const hashrateHour = (
      miner: number,
      fbox: number,
      start: number,
      cover: number,
      reach: number,
      ths: number,
    ) => ({
      miner_id: miner,
      hour_ts: start,
      area_id: areaId,
      fbox_id: fbox,
      model: 'S19 Pro',
      cover_s: cover,
      reach_s: reach,
      hash_s: reach,
      hashrate_s: ths * reach,
      theo_s: 110 * cover,
      online: reach > 0 ? 1 : 0,
      cum_cover_s: 0,
      cum_reach_s: 0,
      cum_hash_s: 0,
      cum_hashrate_s: 0,
      cum_theo_s: 0,
    });
    await t.app.db
      .insertInto('miner_hashrate_1h')
      .values([
        // Good: reports the whole window at 100 TH/s of 110 → 90.9 %.
        hashrateHour(good!, boxA.id, h0 - 2 * hour, 3600, 3600, 100),
        hashrateHour(good!, boxA.id, h0 - hour, 3600, 3600, 100),
        hashrateHour(good!, boxA.id, h0, 1800, 1800, 100),
        // Poor: half the time at 90 TH/s → 81.8 %, reported 50 %; the hour before the window is left out.
        hashrateHour(poor!, boxA.id, h0 - 3 * hour, 3600, 3600, 200),
        hashrateHour(poor!, boxA.id, h0 - 2 * hour, 3600, 1800, 90),
        hashrateHour(poor!, boxA.id, h0 - hour, 3600, 1800, 90),
        hashrateHour(poor!, boxA.id, h0, 1800, 900, 90),
        // Box B is not on the board.
        hashrateHour(elsewhere!, boxB.id, h0, 1800, 1800, 100),
      ])
      .execute();
    const chipRow = (miner: number, bucket: number, chip: number) => ({
      miner_id: miner,
      bucket_ts: bucket,
      samples: 6,
      hashrate_avg: 100,
      hashrate_min: 100,
      hashrate_max: 100,
      power_w_avg: 3250,
      power_w_min: 3250,
      power_w_max: 3250,
      chip_max_temp_avg: chip,
      chip_max_temp_min: chip,
      chip_max_temp_max: chip,
    });
    await t.app.db
      .insertInto('miner_samples_1h')
      .values([
        chipRow(good!, h0 - 3 * hour, 130),
        chipRow(good!, h0 - 2 * hour, 80),
        chipRow(poor!, h0 - hour, 84),
        chipRow(silent!, h0 - hour, -999),
      ])
      .execute();
    await t.app.db
      .insertInto('miner_samples_1m')
      .values([
        // In an hour the 1-hour rollup holds: read from there, not here.
        chipRow(good!, h0 - 30 * minute, 99),
        chipRow(good!, h0 + 10 * minute, 84),
        chipRow(poor!, h0 + 20 * minute, 88),
      ])
      .execute();

    const board = (await save({ fbox_ids: [boxA.id], test_hours: 3 })).data;
    const answer = await test(board.id);
    expect(answer.code, answer.msg).toBe(Code.OK);
    expect(answer.data.window).toEqual({ from: h0 - 2 * hour, to: now });
    expect(answer.data.counts).toEqual({ pass: 1, fail: 1, no_data: 1, hashrate: 1, temperature: 1 });
    expect(answer.data.fboxes).toMatchObject([{ id: boxA.id, tanks: [{ no: 1 }, { no: 2 }] }]);
    expect(answer.data.miners).toEqual([
      {
        id: good,
        fbox_id: boxA.id,
        tank_no: null,
        slot: 1,
        sn: `${boxA.device_id}-0`,
        worker: 'acct.1x0',
        ip: '10.0.0.1',
        model: 'S19 Pro',
        online: true,
        hashrate: 100,
        theoretical: 110,
        ratio: 90.9,
        chip_max_temp: 84,
        reported: 1,
        verdict: 'pass',
        failed: [],
      },
      expect.objectContaining({
        id: poor,
        hashrate: 90,
        ratio: 81.8,
        chip_max_temp: 88,
        reported: 0.5,
        verdict: 'fail',
        failed: ['hashrate', 'temperature'],
      }),
      expect.objectContaining({
        id: silent,
        hashrate: null,
        theoretical: 110,
        ratio: null,
        chip_max_temp: null,
        reported: 0,
        verdict: 'no_data',
        failed: [],
      }),
    ]);

    // A stricter board: 91 % fails the good miner on hashrate; a 1-hour window only sees 00:00 on.
    await save({ id: board.id, fbox_ids: [boxA.id], test_hours: 1, pass_ratio: 91 });
    const strict = (await test(board.id)).data;
    expect(strict.window.from).toBe(h0);
    expect(strict.miners[0]).toMatchObject({
      ratio: 90.9,
      chip_max_temp: 84,
      verdict: 'fail',
      failed: ['hashrate'],
    });
    expect(strict.miners[1]).toMatchObject({ chip_max_temp: 88, reported: 0.5 });
  });

  it('answers only for commissioning boards; a kiosk link opens its one board', async () => {
    const board = (await save({})).data;
    const data = (await save({ type: 'dataBoard' })).data;
    expect((await test(data.id)).code).toBe(Code.NOT_FOUND);
    const made = (
      await post(t.app, '/index/fbox.board/kiosk_create', { area_id: areaId, id: board.id }, { token })
    ).json();
    const kioskGet = (path: string) =>
      get(t.app, `/index/fbox.board/${path}`, { token: made.data.token }).then((r) => r.json());
    const shown = await kioskGet('kiosk_test');
    expect(shown.code, shown.msg).toBe(Code.OK);
    expect(shown.data.board.id).toBe(board.id);
    expect((await kioskGet('kiosk_miners')).code).toBe(Code.NOT_FOUND);
    expect((await kioskGet('kiosk_tanks')).code).toBe(Code.NOT_FOUND);
    const asSession = await get(
      t.app,
      '/index/fbox.board/test',
      { area_id: String(areaId), id: String(board.id) },
      { token: made.data.token },
    );
    expect(asSession.json().code).toBe(Code.NOT_LOGGED_IN);
  });
});
