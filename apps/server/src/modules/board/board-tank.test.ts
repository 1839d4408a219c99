import { Code, topics } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
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

describeDb('tank board (fbox.board/tanks)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let otherAreaId: number;
  let boxA: CreatedFbox;
  let boxB: CreatedFbox;

  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    otherAreaId = (await createArea(t.app, master.id)).id;
    boxA = await createFbox(t.app, areaId, { name: 'Box A' });
    boxB = await createFbox(t.app, areaId, { name: 'Box B' });
  });
  afterEach(() => t.close());

  const save = async (body: Record<string, unknown>, tk = token) =>
    (
      await post(
        t.app,
        '/index/fbox.board/save',
        { area_id: areaId, type: 'tankBoard', title: 'Tanks', ...body },
        { token: tk },
      )
    ).json();
  const tanks = async (id: number, tk = token, area = areaId) =>
    (
      await get(t.app, '/index/fbox.board/tanks', { area_id: String(area), id: String(id) }, { token: tk })
    ).json();
  const report = async (box: CreatedFbox, seq: number) => {
    const msg = telemetry({ seq, ts: t.clock.ms, miners: 2, tanks: 2, snPrefix: box.device_id });
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await t.app.ingest.flush();
  };
  const rule = (metric: string, level: number, threshold: number | null, enabled = 1) => ({
    area_id: areaId,
    metric: metric as 'oil_out_temp_high',
    level,
    threshold,
    threshold_max: null,
    sustain_seconds: 0,
    hysteresis: 0,
    enabled,
    created_at: 0,
    updated_at: 0,
  });

  it('shows every covered tank’s readings against the enabled rules’ thresholds and its open alerts', async () => {
    await t.app.db.deleteFrom('alert_rules').where('area_id', '=', areaId).execute();
    await t.app.db
      .insertInto('alert_rules')
      .values([
        rule('oil_out_temp_high', 3, 51),
        rule('oil_out_temp_high', 1, 60),
        rule('oil_in_temp_high', 2, 45, 0),
        rule('liquid_level_low', 3, 85),
        rule('fan_fault', 2, null),
      ])
      .execute();
    const board = (await save({ fbox_ids: [boxA.id] })).data;
    const before = await tanks(board.id);
    expect(before.code, before.msg).toBe(Code.OK);
    // Never reported: offline, every reading "no data".
    expect(before.data.fboxes).toMatchObject([
      {
        id: boxA.id,
        name: 'Box A',
        online: false,
        tanks: [
          { no: 1, name: 'Tank 1', online: false, oil_in_temp: -999, liquid_level: -999, fans: [] },
          { no: 2, name: 'Tank 2', online: false },
        ],
      },
    ]);
    expect(before.data.tanks).toBeUndefined();

    await report(boxA, 1);
    await report(boxB, 1);
    const tankOne = before.data.fboxes[0].tanks[0].id;
    await t.app.db
      .updateTable('tank_state')
      .set({ oil_out_temp: 52.5, oil_pump_efficiency: 3000, fans: '[0,-999]' })
      .where('tank_id', '=', tankOne)
      .execute();
    await t.app.db
      .insertInto('alerts')
      .values({
        area_id: areaId,
        rule_id: 0,
        metric: 'fan_fault',
        level: 2,
        device_kind: 'tank',
        device_id: tankOne,
        fbox_id: boxA.id,
        device_name: 'Tank 1',
        value: null,
        peak_value: null,
        detail: '#1',
        started_at: t.clock.ms,
        ended_at: null,
      })
      .execute();
    const live = (await tanks(board.id)).data;
    // Most severe level first; the disabled oil-in rule is not shown; the pump has no rule. (The
    // reports' 50 °C outlet oil stays under 51 °C, so the alarm engine opens nothing itself.)
    expect(live.limits).toEqual({
      oil_in_temp: [],
      oil_out_temp: [
        { level: 1, threshold: 60 },
        { level: 3, threshold: 51 },
      ],
      liquid_level: [{ level: 3, threshold: 85 }],
    });
    expect(live.watched).toEqual({ pump: false, fans: true });
    expect(live.at).toBe(t.clock.ms);
    const [one, two] = live.fboxes[0].tanks;
    expect(live.fboxes[0].online).toBe(true);
    // Drive loads in percent of 5000 (the mine's 50 Hz): 3000 → 60 %, 1300 → 26 %.
    expect(one).toMatchObject({
      online: true,
      oil_in_temp: 40,
      oil_out_temp: 52.5,
      liquid_level: 90,
      oil_pump: { value: 3000, percent: 60 },
      fans: [
        { value: 0, percent: 0 },
        { value: -999, percent: null },
      ],
      control_mode: 'auto',
      short_circuit: false,
      alerts: [{ metric: 'fan_fault', level: 2 }],
    });
    expect(two).toMatchObject({
      online: true,
      fans: [
        { value: 1200, percent: 24 },
        { value: 1300, percent: 26 },
      ],
      alerts: [],
    });
    // The FBOX going offline marks its tanks offline.
    await t.app.db.updateTable('fbox_state').set({ online: 0 }).where('fbox_id', '=', boxA.id).execute();
    expect((await tanks(board.id)).data.fboxes[0].tanks[0].online).toBe(false);
  });

  it('answers only for tank boards of the caller’s mines; operators read it; a kiosk link opens it alone', async () => {
    const board = (await save({})).data;
    const data = (await save({ type: 'dataBoard', title: 'Figures' })).data;
    expect((await tanks(data.id)).code).toBe(Code.NOT_FOUND);
    expect((await tanks(board.id, token, otherAreaId)).code).toBe(Code.NOT_FOUND);
    const operator = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    expect((await tanks(board.id, operator)).code).toBe(Code.OK);
    const outsider = await login(t.app, await createSubAccount(t.app, master, [otherAreaId]));
    expect([Code.NOT_FOUND, Code.FORBIDDEN]).toContain((await tanks(board.id, outsider)).code);

    const kioskGet = (path: string, kiosk: string) =>
      get(t.app, `/index/fbox.board/${path}`, { token: kiosk }).then((r) => r.json());
    const made = (
      await post(t.app, '/index/fbox.board/kiosk_create', { area_id: areaId, id: board.id }, { token })
    ).json();
    const kiosk: string = made.data.token;
    const shown = await kioskGet('kiosk_tanks', kiosk);
    expect(shown.code, shown.msg).toBe(Code.OK);
    expect(shown.data.fboxes.map((f: { name: string }) => f.name)).toEqual(['Box A', 'Box B']);
    expect((await kioskGet('kiosk_data', kiosk)).code).toBe(Code.NOT_FOUND);
    expect((await kioskGet('kiosk_miners', kiosk)).code).toBe(Code.NOT_FOUND);
    expect((await tanks(board.id, kiosk)).code).toBe(Code.NOT_LOGGED_IN);
    await post(t.app, '/index/fbox.board/kiosk_revoke', { area_id: areaId, id: board.id }, { token });
    expect((await kioskGet('kiosk_tanks', kiosk)).code).toBe(Code.NOT_FOUND);
  });
});
