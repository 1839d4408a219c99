import { type AlertMetric, type AlertTarget, Code } from '@fbox/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createFbox,
  createMaster,
  createSubAccount,
  get,
  login,
  type TestUser,
} from '../../test/factories.js';
import { AlertRepository } from './alert.repository.js';

const current = '/index/fbox.warnning/index';
const history = '/index/fbox.history/index';

interface Seed {
  metric: AlertMetric;
  target: AlertTarget;
  level: number;
  box: CreatedFbox;
  /** The device's id; the box's own for an FBOX alert. */
  deviceId?: number;
  name: string;
  value?: number | null;
  peak?: number | null;
  detail?: string;
  started: number;
  ended?: number;
}

describeDb('alert lists: realtime and history', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let otherAreaId: number;
  let boxA: CreatedFbox;
  let boxB: CreatedFbox;
  /** Alert ids by their label in the seed below. */
  const ids: Record<string, number> = {};

  /** Opens an alert through the repository the engine uses, and closes it when `ended` is given. */
  const seed = async (label: string, s: Seed) => {
    const rule = (await t.app.alertRules.list(s.box.area_id)).find((r) => r.metric === s.metric)!;
    const key = {
      ruleId: rule.id,
      kind: s.target,
      deviceId: s.deviceId ?? s.box.id,
      areaId: s.box.area_id,
      fboxId: s.box.id,
    };
    const repo = new AlertRepository(t.app.db);
    const id = await repo.open(key, {
      area_id: s.box.area_id,
      rule_id: rule.id,
      metric: s.metric,
      level: s.level,
      device_kind: s.target,
      device_id: key.deviceId,
      fbox_id: s.box.id,
      device_name: s.name,
      value: s.value ?? null,
      peak_value: s.peak ?? s.value ?? null,
      detail: s.detail ?? '',
      started_at: s.started,
    });
    if (s.ended !== undefined) await repo.close(key, id!, s.ended);
    ids[label] = id!;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app, { username: 'alarm_master' });
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    otherAreaId = (await createArea(t.app, master.id)).id;
    boxA = await createFbox(t.app, areaId, { name: 'Box A', tanks: 1 });
    boxB = await createFbox(t.app, areaId, { name: 'Box B', tanks: 1 });
    const otherBox = await createFbox(t.app, otherAreaId, { name: 'Other box', tanks: 1 });
    // Open: a hot container, a hot tank, an offline miner (acknowledged).
    await seed('hot', {
      metric: 'fbox_temp_high',
      target: 'fbox',
      level: 2,
      box: boxA,
      name: 'Box A',
      value: 50,
      peak: 57,
      started: 1000,
    });
    await seed('oil', {
      metric: 'oil_out_temp_high',
      target: 'tank',
      level: 1,
      box: boxA,
      deviceId: 11,
      name: 'Tank North',
      value: 60,
      started: 2000,
    });
    await seed('offline', {
      metric: 'miner_offline',
      target: 'miner',
      level: 2,
      box: boxB,
      deviceId: 21,
      name: 'Worker acct.1x0',
      started: 3000,
    });
    // Closed: humid container, a miner fault, a short circuit.
    await seed('humid', {
      metric: 'fbox_humidity_high',
      target: 'fbox',
      level: 3,
      box: boxB,
      name: 'Box B',
      value: 90,
      peak: 95,
      started: 500,
      ended: 4000,
    });
    await seed('fault', {
      metric: 'miner_fault',
      target: 'miner',
      level: 3,
      box: boxA,
      deviceId: 22,
      name: 'Worker ACCT.1x1',
      detail: 'E12',
      started: 1500,
      ended: 2500,
    });
    await seed('short', {
      metric: 'short_circuit',
      target: 'tank',
      level: 1,
      box: boxB,
      deviceId: 12,
      name: 'Tank South',
      started: 5000,
      ended: 6000,
    });
    // Another mine of the same master: never listed with this one.
    await seed('elsewhere', {
      metric: 'fbox_temp_high',
      target: 'fbox',
      level: 2,
      box: otherBox,
      name: 'Other box',
      value: 70,
      started: 2500,
    });
    await seed('elsewhereClosed', {
      metric: 'fbox_humidity_high',
      target: 'fbox',
      level: 3,
      box: otherBox,
      name: 'Other box',
      value: 90,
      started: 2500,
      ended: 3500,
    });
    await t.app.db
      .updateTable('alerts')
      .set({ acked_by: master.id, acked_at: 3500, ack_note: 'on it' })
      .where('id', '=', ids.offline!)
      .execute();
  });
  afterAll(() => t?.close());

  const call = async (path: string, query: Record<string, string | number> = {}, tok = token) =>
    (
      await get(
        t.app,
        path,
        Object.fromEntries(Object.entries({ area_id: areaId, ...query }).map(([k, v]) => [k, String(v)])),
        { token: tok },
      )
    ).json();
  /** The labels of the listed alerts, in order. */
  const labels = async (path: string, query: Record<string, string | number> = {}) => {
    const answer = await call(path, query);
    expect(answer.code, JSON.stringify(answer)).toBe(Code.OK);
    const byId = new Map(Object.entries(ids).map(([label, id]) => [id, label]));
    return (answer.data.items as { id: number }[]).map((i) => byId.get(i.id));
  };

  it('lists the open alerts of the mine, newest first, with FBOX name and who acknowledged', async () => {
    const answer = await call(current);
    expect(answer).toMatchObject({ code: Code.OK, data: { total: 3, page: 1, limit: 20 } });
    expect(answer.data.items).toEqual([
      {
        id: ids.offline,
        rule_id: expect.any(Number),
        metric: 'miner_offline',
        level: 2,
        target: 'miner',
        device_id: 21,
        device_name: 'Worker acct.1x0',
        fbox_id: boxB.id,
        fbox_name: 'Box B',
        value: null,
        peak_value: null,
        detail: '',
        started_at: 3000,
        ended_at: null,
        end_reason: null,
        acked_at: 3500,
        acked_by: 'alarm_master',
        ack_note: 'on it',
        silenced_until: null,
      },
      expect.objectContaining({ id: ids.oil, target: 'tank', fbox_name: 'Box A', acked_by: null }),
      expect.objectContaining({ id: ids.hot, value: 50, peak_value: 57, fbox_name: 'Box A' }),
    ]);
  });

  it('lists the closed alerts of the mine in history, latest ended first', async () => {
    const answer = await call(history);
    expect(answer).toMatchObject({ code: Code.OK, data: { total: 3, page: 1, limit: 20 } });
    expect(answer.data.items.map((i: { id: number }) => i.id)).toEqual([ids.short, ids.humid, ids.fault]);
    expect(answer.data.items[2]).toMatchObject({
      metric: 'miner_fault',
      detail: 'E12',
      started_at: 1500,
      ended_at: 2500,
      end_reason: 'recovered',
      fbox_name: 'Box A',
    });
  });

  it("exports the history with its filters and order as CSV and XLSX, in the reader's language", async () => {
    const download = (query: Record<string, string>, lang = 'en') =>
      get(
        t.app,
        '/index/fbox.history/export',
        { area_id: String(areaId), ...query },
        { token, headers: { lang } },
      );
    const csv = await download({ sort: 'started_at' });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/filename="alert-history-\d+-\d{4}-\d\d-\d\d\.csv"/);
    const lines = csv.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      '\uFEFFLevel,Rule,Device type,Device,FBOX,Value,Worst,Reported,Started,Ended,Duration (s),Ended because,Acknowledged by,Acknowledged at,Note',
    );
    expect(lines).toHaveLength(4);
    // Times in the master's zone (UTC+8), the duration in seconds.
    expect(lines[1]).toBe(
      'Minor,Container humidity high,FBOX,Box B,Box B,90,95,,1970-01-01 08:00:00,1970-01-01 08:00:04,4,Recovered,,,',
    );
    expect(lines[3]).toMatch(/^Critical,Short-circuit sensor tripped,Tank,Tank South,Box B,,,,/);
    const zh = await download({ level: '1' }, 'zh-cn');
    const zhLines = zh.body.split('\r\n').filter(Boolean);
    expect(zhLines[0]).toContain('级别,规则');
    expect(zhLines.slice(1)).toEqual([expect.stringMatching(/^紧急,短路/)]);
    const xlsx = await download({ format: 'xlsx' });
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // Another master's token: not found, no file.
    const intruder = await login(t.app, await createMaster(t.app));
    const refused = await get(
      t.app,
      '/index/fbox.history/export',
      { area_id: String(areaId) },
      { token: intruder },
    );
    expect(refused.json().code).toBe(Code.NOT_FOUND);
  });

  it('filters by level, target, metric, FBOX and a case-insensitive keyword on the device name', async () => {
    expect(await labels(current, { level: 2 })).toEqual(['offline', 'hot']);
    expect(await labels(current, { target: 'tank' })).toEqual(['oil']);
    expect(await labels(current, { metric: 'fbox_temp_high' })).toEqual(['hot']);
    expect(await labels(current, { fbox_id: boxB.id })).toEqual(['offline']);
    expect(await labels(current, { keyword: 'ACCT' })).toEqual(['offline']);
    expect(await labels(history, { keyword: 'acct.1' })).toEqual(['fault']);
    expect(await labels(history, { keyword: 'tank', level: 1 })).toEqual(['short']);
    expect(await labels(history, { target: 'fbox', fbox_id: boxB.id })).toEqual(['humid']);
    // A wildcard in the keyword is a plain character.
    expect(await labels(current, { keyword: '%' })).toEqual([]);
    // Empty filters (an unset form select) filter nothing.
    expect(await labels(current, { level: '', target: '', metric: '', fbox_id: '' })).toHaveLength(3);
    const filtered = await call(current, { level: 2, limit: 1 });
    expect(filtered.data).toMatchObject({ total: 2, items: [{ id: ids.offline }] });
  });

  it('sorts by every field, missing values last ascending and first descending, ties by id', async () => {
    expect(await labels(current, { sort: 'started_at' })).toEqual(['hot', 'oil', 'offline']);
    expect(await labels(current, { sort: 'value' })).toEqual(['hot', 'oil', 'offline']);
    expect(await labels(current, { sort: '-value' })).toEqual(['offline', 'oil', 'hot']);
    expect(await labels(current, { sort: 'peak_value' })).toEqual(['hot', 'oil', 'offline']);
    expect(await labels(current, { sort: 'level' })).toEqual(['oil', 'hot', 'offline']);
    expect(await labels(current, { sort: '-level' })).toEqual(['offline', 'hot', 'oil']);
    expect(await labels(current, { sort: 'fbox_name' })).toEqual(['hot', 'oil', 'offline']);
    expect(await labels(current, { sort: '-fbox_name' })).toEqual(['offline', 'oil', 'hot']);
    // Names that sort alike under any collation (Box, Tank, Worker).
    expect(await labels(current, { sort: 'device_name' })).toEqual(['hot', 'oil', 'offline']);
    expect(await labels(current, { sort: 'metric' })).toEqual(['hot', 'offline', 'oil']);
    // Open alerts have no end: all missing, so the id decides.
    expect(await labels(current, { sort: 'ended_at' })).toEqual(['hot', 'oil', 'offline']);
    expect(await labels(history, { sort: 'ended_at' })).toEqual(['fault', 'humid', 'short']);
    expect(await labels(history, { sort: '-started_at' })).toEqual(['short', 'fault', 'humid']);
    expect(await labels(history, { sort: 'value' })).toEqual(['humid', 'fault', 'short']);
    expect(await labels(history, { sort: '-peak_value' })).toEqual(['short', 'fault', 'humid']);
  });

  it('pages in the order, with the total of every match', async () => {
    const first = await call(current, { limit: 2, page: 1 });
    expect(first.data).toMatchObject({ total: 3, page: 1, limit: 2 });
    const second = await call(current, { limit: 2, page: 2 });
    expect(second.data).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect([...first.data.items, ...second.data.items].map((i: { id: number }) => i.id)).toEqual([
      ids.offline,
      ids.oil,
      ids.hot,
    ]);
    expect((await call(history, { limit: 2, page: 3 })).data).toMatchObject({ total: 3, items: [] });
  });

  it('bounds history by when the alert started: from inclusive, to exclusive', async () => {
    expect(await labels(history, { from: 1500 })).toEqual(['short', 'fault']);
    expect(await labels(history, { from: 1500, to: 5000 })).toEqual(['fault']);
    expect(await labels(history, { to: 1500 })).toEqual(['humid']);
    expect(await labels(history, { from: 500, to: 5001 })).toEqual(['short', 'humid', 'fault']);
    expect(await call(history, { from: 2000, to: 2000 })).toMatchObject({
      code: Code.VALIDATION,
      data: { errors: [{ field: 'to' }] },
    });
  });

  it('refuses a bad filter on its field', async () => {
    for (const path of [current, history]) {
      for (const [field, value] of [
        ['level', 9],
        ['sort', 'password'],
        ['target', 'pool'],
        ['metric', 'cpu_temp'],
        ['fbox_id', 'x'],
        ['limit', 0],
      ] as const) {
        expect(await call(path, { [field]: value }), `${path} ${field}=${value}`).toMatchObject({
          code: Code.VALIDATION,
          data: { errors: [{ field }] },
        });
      }
    }
    expect(await call(history, { from: -1 })).toMatchObject({
      code: Code.VALIDATION,
      data: { errors: [{ field: 'from' }] },
    });
  });

  it('answers "not found" for a mine outside the caller’s scope', async () => {
    const other = await createMaster(t.app);
    const otherToken = await login(t.app, other);
    for (const path of [current, history]) {
      expect(await call(path, {}, otherToken)).toMatchObject({ code: Code.NOT_FOUND });
      expect(JSON.stringify(await call(path, {}, otherToken))).not.toContain('Box A');
    }
    // A sub-account sees the mines assigned to it, and only those.
    const sub = await createSubAccount(t.app, master, [otherAreaId]);
    const subToken = await login(t.app, sub);
    for (const path of [current, history]) {
      expect(await call(path, {}, subToken)).toMatchObject({ code: Code.NOT_FOUND });
      const own = await call(path, { area_id: otherAreaId }, subToken);
      expect(own).toMatchObject({ code: Code.OK, data: { total: 1 } });
      expect(own.data.items[0].id).toBe(path === current ? ids.elsewhere : ids.elsewhereClosed);
    }
  });
});
