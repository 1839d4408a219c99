import { alertRuleLimits, Code, type TelemetryMessage, topics } from '@fbox/contracts';
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
import type { AlertTransition } from './alarm.engine.js';
import { AlertRuleRepository } from './alert-rule.repository.js';

const LIST = '/index/fbox.oillist/get_alert_setting';
const SAVE = '/index/fbox.oillist/set_alert_setting';
const DELETE = '/index/fbox.oillist/del_alert_setting';
const SILENCE = '/index/fbox.warnning/silence';
const CURRENT = '/index/fbox.warnning/index';
const s = 1000;

describeDb('editing alert rules and silencing alerts', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let box: CreatedFbox;
  let seq = 0;
  let transitions: AlertTransition[];

  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app, { username: 'rules_master' });
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    box = await createFbox(t.app, areaId, { name: 'Box A', tanks: 1 });
    transitions = [];
    t.app.alarms.onTransition(async (_trx, transition) => {
      transitions.push(transition);
    });
  });
  afterEach(() => t.close());

  const call = (path: string, body: Record<string, unknown>, as = token) =>
    post(t.app, path, { area_id: areaId, ...body }, { token: as }).then((r) => r.json());
  const list = (query: Record<string, string> = {}, as = token) =>
    get(t.app, LIST, { area_id: String(areaId), ...query }, { token: as }).then((r) => r.json());
  const ruleOf = async (metric: string) =>
    (await t.app.alertRules.list(areaId)).find((r) => r.metric === metric)!;
  /** The box reports a container temperature; the engine evaluates it. */
  const temperature = async (value: number) => {
    const msg: TelemetryMessage = telemetry({ seq: ++seq, ts: t.clock.ms, miners: 1, tanks: 1 });
    msg.box.temperature = value;
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await t.app.alarms.settled();
  };
  /** Container 50 °C held past the default 60 s: the default major alert opens. */
  const raiseHeat = async () => {
    await temperature(50);
    t.clock.advance(61 * s);
    await temperature(51);
  };
  const openAlerts = () => t.app.db.selectFrom('alerts').selectAll().where('ended_at', 'is', null).execute();

  it('lists the rules of a mine, all or one target', async () => {
    const all = await list();
    expect(all.code).toBe(1);
    expect(all.data.length).toBeGreaterThanOrEqual(12);
    const tank = await list({ target: 'tank' });
    expect(tank.data.length).toBeGreaterThan(0);
    expect(tank.data.map((r: { metric: string }) => r.metric)).toContain('oil_out_temp_high');
    expect(tank.data.map((r: { metric: string }) => r.metric)).not.toContain('chip_temp_high');
    expect((await list({ target: 'boat' })).data.errors[0].field).toBe('target');
  });

  it('adds a rule that fires, and refuses bad input on its field, changing nothing', async () => {
    const before = (await list()).data.length;
    const refused = await call(SAVE, {
      metric: 'chip_temp_high',
      level: 1,
      threshold: 151,
      sustain_seconds: 0,
    });
    expect(refused).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'threshold' }] } });
    const range = await call(SAVE, {
      metric: 'fbox_voltage_out_of_range',
      level: 1,
      threshold: 400,
      threshold_max: 380,
      sustain_seconds: 0,
    });
    expect(range.data.errors[0].field).toBe('threshold_max');
    expect((await list()).data.length).toBe(before);

    const added = await call(SAVE, { metric: 'fbox_temp_high', level: 1, threshold: 48, sustain_seconds: 0 });
    expect(added).toMatchObject({
      code: 1,
      data: { metric: 'fbox_temp_high', level: 1, threshold: 48, enabled: true, hysteresis: 0 },
    });
    await temperature(49);
    expect((await openAlerts()).map((a) => [a.rule_id, a.level])).toEqual([[added.data.id, 1]]);
    expect(transitions.map((x) => [x.kind, x.silenced])).toEqual([['fired', false]]);
    const [logged] = await t.app.db
      .selectFrom('operation_log')
      .selectAll()
      .where('action', '=', 'alertRuleSave')
      .where('code', '=', 1)
      .execute();
    expect(logged).toMatchObject({ user_id: master.id, area_id: areaId, code: 1 });
  });

  it('turning a rule off closes its open alert as changed, and it stays quiet', async () => {
    await raiseHeat();
    const [alert] = await openAlerts();
    expect(alert).toBeDefined();
    const rule = await ruleOf('fbox_temp_high');
    const off = await call(SAVE, { ...rule, enabled: false });
    expect(off).toMatchObject({ code: 1, data: { id: rule.id, enabled: false } });
    expect(await openAlerts()).toEqual([]);
    const closed = await t.app.db
      .selectFrom('alerts')
      .selectAll()
      .where('id', '=', alert!.id)
      .executeTakeFirst();
    expect(closed).toMatchObject({ end_reason: 'rule_changed', ended_at: t.clock.ms });
    expect(transitions.map((x) => x.kind)).toEqual(['fired', 'closed']);
    t.clock.advance(120 * s);
    await temperature(55);
    expect(await openAlerts()).toEqual([]);
  });

  it('a change of the sustain time keeps the open alert; a new threshold closes it', async () => {
    await raiseHeat();
    const rule = await ruleOf('fbox_temp_high');
    await call(SAVE, { ...rule, sustain_seconds: 30 });
    expect(await openAlerts()).toHaveLength(1);
    await call(SAVE, { ...rule, threshold: 52 });
    expect(await openAlerts()).toEqual([]);
  });

  it('deleting a rule closes its alert as deleted and keeps it in history', async () => {
    await raiseHeat();
    const rule = await ruleOf('fbox_temp_high');
    expect(await call(DELETE, { id: rule.id })).toMatchObject({ code: 1 });
    expect((await t.app.alertRules.list(areaId)).some((r) => r.id === rule.id)).toBe(false);
    const [closed] = await t.app.db.selectFrom('alerts').selectAll().execute();
    expect(closed).toMatchObject({ rule_id: rule.id, end_reason: 'rule_deleted' });
    expect((await call(DELETE, { id: rule.id })).code).toBe(Code.NOT_FOUND);
  });

  it('removing a device closes its alerts as removed; foreign ids close nothing', async () => {
    // A miner alert (its chips at 95 °C, the default 90 °C rule shortened) and the box's heat alert.
    const chip = await ruleOf('chip_temp_high');
    await call(SAVE, { ...chip, sustain_seconds: 0 });
    await raiseHeat();
    const msg: TelemetryMessage = telemetry({ seq: ++seq, ts: t.clock.ms, miners: 1, tanks: 1 });
    msg.box.temperature = 51;
    msg.miners[0]!.chip_max_temp = 95;
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await t.app.alarms.settled();
    const miner = (await openAlerts()).find((a) => a.device_kind === 'miner')!;
    expect(miner).toBeDefined();
    // Another master deleting "that" miner id in their own mine changes nothing here.
    const intruder = await createMaster(t.app);
    const intruderToken = await login(t.app, intruder);
    const theirMine = (await createArea(t.app, intruder.id)).id;
    await post(
      t.app,
      '/index/fbox.miner/deleted',
      { area_id: theirMine, ids: [miner.device_id] },
      { token: intruderToken },
    );
    expect(await openAlerts()).toHaveLength(2);
    expect((await call('/index/fbox.miner/deleted', { ids: [miner.device_id] })).code).toBe(1);
    const closedMiner = await t.app.db
      .selectFrom('alerts')
      .selectAll()
      .where('id', '=', miner.id)
      .executeTakeFirst();
    expect(closedMiner).toMatchObject({ end_reason: 'device_removed' });
    expect(await openAlerts()).toHaveLength(1);
    expect((await call('/index/fbox.boxlist/deleted', { id: box.id })).code).toBe(1);
    expect(await openAlerts()).toEqual([]);
    expect(transitions.filter((x) => x.kind === 'closed').map((x) => x.alert.end_reason)).toEqual([
      'device_removed',
      'device_removed',
    ]);
  });

  it(`holds at most ${alertRuleLimits.perMineMax} rules per mine`, async () => {
    const have = (await list()).data.length;
    const repo = new AlertRuleRepository(t.app.db);
    const fields = {
      metric: 'chip_temp_high',
      level: 3,
      threshold: 95,
      threshold_max: null,
      sustain_seconds: 0,
      hysteresis: 0,
      enabled: true,
    } as const;
    for (let i = have; i < alertRuleLimits.perMineMax; i++) await repo.insert(areaId, fields, t.clock.ms);
    const refused = await call(SAVE, {
      metric: 'chip_temp_high',
      level: 3,
      threshold: 95,
      sustain_seconds: 0,
    });
    expect(refused).toMatchObject({ code: Code.CONFLICT });
    expect(refused.msg).toContain(String(alertRuleLimits.perMineMax));
  });

  it('operators need the alert-rules permission; other mines answer not found', async () => {
    const rule = await ruleOf('fbox_temp_high');
    const plain = await login(
      t.app,
      await createSubAccount(t.app, master, [areaId], { rules: ['minerControl'] }),
    );
    expect((await call(SAVE, { ...rule, threshold: 40 }, plain)).code).toBe(Code.FORBIDDEN);
    expect((await list({}, plain)).code).toBe(1);
    const allowed = await login(
      t.app,
      await createSubAccount(t.app, master, [areaId], { rules: ['alertRules'] }),
    );
    expect((await call(SAVE, { ...rule, threshold: 40 }, allowed)).data.threshold).toBe(40);
    const intruder = await login(t.app, await createMaster(t.app));
    expect((await call(SAVE, { ...rule, threshold: 41 }, intruder)).code).toBe(Code.NOT_FOUND);
    expect((await call(DELETE, { id: rule.id }, intruder)).code).toBe(Code.NOT_FOUND);
    expect((await list({}, intruder)).code).toBe(Code.NOT_FOUND);
    expect((await ruleOf('fbox_temp_high')).threshold).toBe(40);
  });

  it('a silence marks the alert and its transitions until it runs out or is lifted', async () => {
    await raiseHeat();
    const [alert] = await openAlerts();
    const silenced = await call(SILENCE, { id: alert!.id, minutes: 30, note: 'maintenance' });
    expect(silenced).toMatchObject({
      code: 1,
      data: { id: alert!.id, silenced_until: t.clock.ms + 30 * 60 * s },
    });
    const listed = await get(t.app, CURRENT, { area_id: String(areaId) }, { token }).then((r) => r.json());
    expect(listed.data.items[0].silenced_until).toBe(t.clock.ms + 30 * 60 * s);
    // Recovers and fires again within the silence: both transitions are marked silenced.
    await temperature(40);
    t.clock.advance(61 * s);
    await temperature(50);
    t.clock.advance(61 * s);
    await temperature(50);
    expect(transitions.map((x) => [x.kind, x.silenced])).toEqual([
      ['fired', false],
      ['recovered', true],
      ['fired', true],
    ]);
    // Lifted: the next transition is not.
    const [again] = await openAlerts();
    expect((await call(SILENCE, { id: again!.id, minutes: 0 })).data.silenced_until).toBeNull();
    await temperature(40);
    expect(transitions.at(-1)).toMatchObject({ kind: 'recovered', silenced: false });
    const actions = await t.app.db
      .selectFrom('operation_log')
      .select('action')
      .where('action', '=', 'alarmSilence')
      .execute();
    expect(actions).toHaveLength(2);
  });

  it('refuses a silence beyond a week on its field, and needs the permission and the mine', async () => {
    await raiseHeat();
    const [alert] = await openAlerts();
    const refused = await call(SILENCE, { id: alert!.id, minutes: alertRuleLimits.silenceMaxMinutes + 1 });
    expect(refused).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'minutes' }] } });
    const plain = await login(
      t.app,
      await createSubAccount(t.app, master, [areaId], { rules: ['minerControl'] }),
    );
    expect((await call(SILENCE, { id: alert!.id, minutes: 5 }, plain)).code).toBe(Code.FORBIDDEN);
    const intruder = await login(t.app, await createMaster(t.app));
    expect((await call(SILENCE, { id: alert!.id, minutes: 5 }, intruder)).code).toBe(Code.NOT_FOUND);
    expect(await t.app.db.selectFrom('alert_silences').selectAll().execute()).toEqual([]);
  });
});
