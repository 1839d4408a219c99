import { type AlertMetric, defaultAlertRules, type TelemetryMessage, topics } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Database } from '../../db/database.js';
import type { CreatedFbox } from '../../devices/device.service.js';
import type { LiveEvent } from '../../realtime/live-events.js';
import { buildTestApp, describeDb, openTestDatabase, type TestApp } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../../test/factories.js';
import { telemetry } from '../../test/mqtt-client.js';

const s = 1000;

describeDb('alert rules on telemetry', () => {
  let database: Database;
  let t: TestApp;
  let fbox: CreatedFbox;
  let seq = 0;
  let events: LiveEvent[];

  /** The app over the suite's database (closed by the test, not with the app: a restart reuses it). */
  const start = async (now?: number) => {
    const app = await buildTestApp({ database: { ...database, close: async () => {} } });
    if (now !== undefined) app.clock.ms = now;
    app.app.live.on('live', (event) => events.push(event));
    return app;
  };

  beforeEach(async () => {
    database = await openTestDatabase();
    events = [];
    t = await start();
    const master = await createMaster(t.app);
    const area = await createArea(t.app, master.id);
    fbox = await createFbox(t.app, area.id, { tanks: 1, name: 'Box A' });
  });
  afterEach(async () => {
    await t.close();
    await database.close();
  });

  /** One telemetry message of `box` stamped now, changed by `edit`, stored and evaluated. */
  const send = async (edit: (msg: TelemetryMessage) => void = () => {}, box = fbox, app = t) => {
    const msg = telemetry({ seq: ++seq, ts: app.clock.ms, miners: 2, tanks: 1 });
    edit(msg);
    await app.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await app.app.alarms.settled();
  };
  const temperature = (value: number) => (msg: TelemetryMessage) => {
    msg.box.temperature = value;
  };
  const alerts = (app = t) => app.app.db.selectFrom('alerts').selectAll().orderBy('id').execute();
  const alertEvents = () => events.filter((e) => e.type === 'alert');

  it('gives a new mine the default rules', async () => {
    const rules = await t.app.alertRules.list(fbox.area_id);
    expect(rules.map(({ id: _id, area_id: _area, ...rule }) => rule)).toEqual(defaultAlertRules);
    expect(new Set(rules.map((r) => r.area_id))).toEqual(new Set([fbox.area_id]));
  });

  it('fires only after the condition held for the sustain time, and once', async () => {
    // Container above 45 °C for 60 s: major.
    await send(temperature(50));
    t.clock.advance(30 * s);
    await send(temperature(51));
    expect(await alerts()).toEqual([]);
    t.clock.advance(30 * s);
    await send(temperature(52));
    const [alert, ...more] = await alerts();
    expect(more).toEqual([]);
    expect(alert).toMatchObject({
      area_id: fbox.area_id,
      metric: 'fbox_temp_high',
      level: 2,
      device_kind: 'fbox',
      device_id: fbox.id,
      fbox_id: fbox.id,
      device_name: 'Box A',
      value: 52,
      peak_value: 52,
      started_at: t.clock.ms,
      ended_at: null,
    });
    t.clock.advance(30 * s);
    await send(temperature(53));
    expect(await alerts()).toHaveLength(1);
    expect(alertEvents()).toEqual([
      {
        type: 'alert',
        areaId: fbox.area_id,
        alertId: alert!.id,
        ruleId: alert!.rule_id,
        level: 2,
        open: true,
      },
    ]);
  });

  it('starts the sustain time over when the condition breaks before it fires', async () => {
    for (const value of [46, 44.5, 46, 44.5, 46]) {
      await send(temperature(value));
      t.clock.advance(40 * s);
    }
    expect(await alerts()).toEqual([]);
  });

  it('keeps an alert open inside the hysteresis margin and closes it beyond, with its peak', async () => {
    await send(temperature(50));
    t.clock.advance(60 * s);
    await send(temperature(50));
    // Hovering at the threshold (45, margin 2): no close, no new alert.
    for (const value of [44.9, 45.5, 43.5, 57, 44, 45]) {
      t.clock.advance(10 * s);
      await send(temperature(value));
    }
    expect(await alerts()).toMatchObject([{ ended_at: null, value: 50, peak_value: 57 }]);
    t.clock.advance(10 * s);
    await send(temperature(42.9));
    const [closed, ...more] = await alerts();
    expect(more).toEqual([]);
    expect(closed).toMatchObject({ ended_at: t.clock.ms, peak_value: 57 });
    expect(alertEvents().map((e) => e.type === 'alert' && e.open)).toEqual([true, false]);
    expect(await t.app.db.selectFrom('alert_states').selectAll().execute()).toEqual([]);
  });

  it('neither fires nor recovers on no data (-999)', async () => {
    for (let i = 0; i < 5; i++) {
      await send(temperature(-999));
      t.clock.advance(60 * s);
    }
    expect(await alerts()).toEqual([]);
    expect(await t.app.db.selectFrom('alert_states').selectAll().execute()).toEqual([]);
    await send(temperature(50));
    t.clock.advance(60 * s);
    await send(temperature(50));
    for (let i = 0; i < 3; i++) {
      t.clock.advance(60 * s);
      await send(temperature(-999));
    }
    expect(await alerts()).toMatchObject([{ ended_at: null, peak_value: 50 }]);
  });

  it('watches tanks and miners by their ids, and the voltage range by its worst phase', async () => {
    const hot = (msg: TelemetryMessage) => {
      msg.tanks[0]!.oil_out_temp = 60;
      msg.miners[1]!.hashrate_realtime = 50;
      msg.box.voltage = [400, 330, 425];
    };
    await send(hot);
    t.clock.advance(600 * s);
    await send(hot);
    const opened = await alerts();
    const tank = await t.app.db
      .selectFrom('tanks')
      .select('id')
      .where('fbox_id', '=', fbox.id)
      .executeTakeFirstOrThrow();
    const miner = await t.app.db
      .selectFrom('miners')
      .select('id')
      .where('fbox_id', '=', fbox.id)
      .where('sn', '=', 'SN-1')
      .executeTakeFirstOrThrow();
    const byMetric = (metric: AlertMetric) => opened.find((a) => a.metric === metric);
    expect(byMetric('oil_out_temp_high')).toMatchObject({
      device_kind: 'tank',
      device_id: tank.id,
      level: 1,
      value: 60,
    });
    expect(byMetric('hashrate_low_pct')).toMatchObject({
      device_kind: 'miner',
      device_id: miner.id,
      device_name: 'acct.1x1',
    });
    expect(byMetric('hashrate_low_pct')!.value).toBeCloseTo((50 / 110) * 100);
    expect(byMetric('fbox_voltage_out_of_range')).toMatchObject({ value: 330, peak_value: 330 });
    expect(opened).toHaveLength(3);
  });

  it('neither re-opens nor loses an alert over a restart', async () => {
    await send(temperature(50));
    t.clock.advance(60 * s);
    await send(temperature(50));
    const [before] = await alerts();
    await t.close();
    t = await start(t.clock.ms + 30 * s);
    await send(temperature(51));
    expect(await alerts()).toEqual([{ ...before, peak_value: 51 }]);
    t.clock.advance(30 * s);
    await send(temperature(40));
    expect(await alerts()).toEqual([
      { ...before, peak_value: 51, ended_at: t.clock.ms, end_reason: 'recovered' },
    ]);
  });

  it('fires box and miner offline from offline detection after their sustain times', async () => {
    await send();
    // Silent for three 30 s reporting intervals: offline detection marks the box and its miners.
    t.clock.advance(90 * s);
    await t.app.jobs.tick();
    await t.app.alarms.settled();
    expect(await alerts()).toEqual([]);
    // FBOX offline: critical after 2 min; miners offline: major after 5 min.
    t.clock.advance(120 * s);
    await t.app.jobs.tick();
    expect((await alerts()).map((a) => [a.metric, a.level, a.device_kind])).toEqual([
      ['fbox_offline', 1, 'fbox'],
    ]);
    t.clock.advance(180 * s);
    await t.app.jobs.tick();
    const opened = await alerts();
    expect(
      opened
        .filter((a) => a.metric === 'miner_offline')
        .map((a) => a.device_name)
        .sort(),
    ).toEqual(['acct.1x0', 'acct.1x1']);
    t.clock.advance(10 * s);
    await t.app.jobs.tick();
    expect(await alerts()).toHaveLength(3);
    // Back: the box's report recovers all three.
    await send();
    expect((await alerts()).every((a) => a.ended_at === t.clock.ms)).toBe(true);
  });

  it('fires offline alerts of a box whose offline mark no listener heard (a process that died)', async () => {
    await send();
    await t.app.db.updateTable('fbox_state').set({ online: 0 }).where('fbox_id', '=', fbox.id).execute();
    await t.app.db.updateTable('miner_info').set({ online: 0 }).where('fbox_id', '=', fbox.id).execute();
    await t.app.jobs.tick();
    t.clock.advance(300 * s);
    await t.app.jobs.tick();
    expect((await alerts()).map((a) => a.metric).sort()).toEqual([
      'fbox_offline',
      'miner_offline',
      'miner_offline',
    ]);
  });

  it('fires a miner reported offline by its box', async () => {
    const down = (msg: TelemetryMessage) => {
      msg.miners[0]!.online = false;
    };
    await send(down);
    t.clock.advance(300 * s);
    await send(down);
    expect(await alerts()).toMatchObject([
      { metric: 'miner_offline', device_name: 'acct.1x0', ended_at: null },
    ]);
    t.clock.advance(10 * s);
    await send();
    expect(await alerts()).toMatchObject([{ metric: 'miner_offline', ended_at: t.clock.ms }]);
  });

  it('applies the rules of the box’s own mine only', async () => {
    const other = await createMaster(t.app);
    const otherArea = await createArea(t.app, other.id);
    const otherBox = await createFbox(t.app, otherArea.id, { tanks: 1 });
    // This mine's container rule is off; the other mine's is on.
    await t.app.db
      .updateTable('alert_rules')
      .set({ enabled: 0 })
      .where('area_id', '=', fbox.area_id)
      .where('metric', '=', 'fbox_temp_high')
      .execute();
    for (const box of [fbox, otherBox, fbox, otherBox]) {
      await send(temperature(50), box);
      if (box === otherBox) t.clock.advance(60 * s);
    }
    const opened = await alerts();
    const otherRule = (await t.app.alertRules.list(otherArea.id)).find((r) => r.metric === 'fbox_temp_high');
    expect(opened).toMatchObject([{ area_id: otherArea.id, device_id: otherBox.id, rule_id: otherRule!.id }]);
    expect(opened).toHaveLength(1);
  });

  it('never holds telemetry back: a failing evaluation is logged and the message is stored', async () => {
    // Evaluation fails on every message: its state table is gone.
    await t.app.db.schema.dropTable('alert_states').execute();
    await send(temperature(50));
    const box = await t.app.db
      .selectFrom('fbox_state')
      .select(['temperature', 'last_seq'])
      .where('fbox_id', '=', fbox.id)
      .executeTakeFirstOrThrow();
    expect(box).toEqual({ temperature: 50, last_seq: seq });
  });
});
