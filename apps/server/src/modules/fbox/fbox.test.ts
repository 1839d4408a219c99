import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { FboxRollupTable } from '../../db/schema.js';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank } from '../../test/device-factories.js';
import {
  createArea,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';

const DETAIL = '/index/fbox.boxlist/detail';
const LIST = '/index/fbox.boxlist/index';

describeDb('FBOX API (fbox.boxlist)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
  });
  afterEach(() => t.close());

  const detail = async (id: number, options: { tk?: string; lang?: string; area?: number } = {}) =>
    (
      await get(
        t.app,
        DETAIL,
        { area_id: String(options.area ?? areaId), id: String(id) },
        { token: options.tk ?? token, headers: { lang: options.lang ?? 'en-us' } },
      )
    ).json();

  const liveBox = () =>
    createFbox(t.app, areaId, {
      name: 'Alpha',
      kind: 'immersion',
      state: {
        online: 1,
        last_seen_at: t.clock.now(),
        temperature: 31.5,
        humidity: 40,
        voltage_a: 380,
        power_kw: 512.25,
        hashrate_total: 1234.5,
        miner_online: 3,
        miner_offline: 1,
        immersion_status: 'on',
        immersion_percent: 87.5,
        meter1_energy_kwh: 1000,
        meter2_energy_kwh: 500,
        energy_day_start_kwh: 1400,
        energy_day: Math.floor(t.clock.now() / 86_400_000),
      },
    });

  it('answers the compatibility fields of DESIGN §5 with their names, types and -999', async () => {
    const box = await liveBox();
    await createTank(t.app, box, 1, {
      state: { online: 1, main_temperatures: JSON.stringify([45.2, -999]) },
    });
    await createTank(t.app, box, 2);
    const body = await detail(box.id);
    expect(body.code).toBe(1);
    const d = body.data;
    expect(d).toMatchObject({
      miner_online: 3,
      miner_offline: 1,
      fbox_type_name: 'Oil Immersion',
      immersion_status: 'On',
      immersion_percent: 87.5,
      fbox_temp: 31.5,
      realtime_power: 1234.5,
      total_realtime_power: 512.25,
      today_use_power: 100,
    });
    expect(Number.isInteger(d.miner_online) && Number.isInteger(d.miner_offline)).toBe(true);
    expect(typeof d.fbox_type_name).toBe('string');
    for (const key of [
      'immersion_percent',
      'fbox_temp',
      'realtime_power',
      'total_realtime_power',
      'today_use_power',
    ])
      expect(typeof d[key], key).toBe('number');
    expect(d.sub_box_list).toHaveLength(2);
    expect(d.sub_box_list[0].main_temperatures).toEqual([{ num: 45.2 }, { num: -999 }]);
    expect(d.sub_box_list[1]).toMatchObject({ status: 'offline', oil_in_temp: -999, main_temperatures: [] });
    // Everything the detail page needs, secrets only for masters and never the collector password.
    expect(d).toMatchObject({ voltage_a: 380, voltage_b: -999, status: 'online', reporting_interval_s: 30 });
    expect(d.mqtt_username).toMatch(/^gw-/);
    expect(d.mqtt_password).toBeTruthy();
    expect(d.collectors).toEqual([
      { no: 1, mac: '', account: '', password_set: false },
      { no: 2, mac: '', account: '', password_set: false },
    ]);
    expect((await detail(box.id, { lang: 'zh-cn' })).data.fbox_type_name).toBe('油浸');
  });

  it('shows Offline immersion for an offline box and -999 before the first telemetry', async () => {
    const box = await createFbox(t.app, areaId, { kind: 'air' });
    const d = (await detail(box.id)).data;
    expect(d).toMatchObject({
      fbox_type_name: 'Exhaust Fan',
      immersion_status: 'Offline',
      fbox_temp: -999,
      realtime_power: -999,
      miner_online: 0,
      // No meter reported yet: no reading, not 0 kWh.
      today_use_power: -999,
      status: 'offline',
    });
  });

  it('lists with keyword, status and kind filters, sorting and paging', async () => {
    const a = await liveBox();
    const b = await createFbox(t.app, areaId, { name: 'Bravo', kind: 'air', state: { temperature: 20 } });
    const c = await createFbox(t.app, areaId, { name: 'Charlie', kind: 'hydro', state: { temperature: 25 } });
    const list = async (query: Record<string, string>) =>
      (await get(t.app, LIST, { area_id: String(areaId), ...query }, { token })).json().data;
    expect((await list({})).items.map((i: { id: number }) => i.id)).toEqual([a.id, b.id, c.id]);
    expect((await list({ sort: '-temperature' })).items.map((i: { id: number }) => i.id)).toEqual([
      a.id,
      c.id,
      b.id,
    ]);
    expect((await list({ status: 'online' })).items.map((i: { id: number }) => i.id)).toEqual([a.id]);
    expect((await list({ kind: 'hydro' })).total).toBe(1);
    expect((await list({ keyword: 'rav' })).items[0].name).toBe('Bravo');
    const page = await list({ limit: '2', page: '2', sort: 'name' });
    expect(page).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.items.map((i: { name: string }) => i.name)).toEqual(['Charlie']);
    expect(
      (await get(t.app, LIST, { area_id: String(areaId), sort: 'password' }, { token })).json(),
    ).toMatchObject({
      code: Code.VALIDATION,
      msg: 'Sort: must be a sortable column',
    });
    const options = (
      await get(t.app, '/index/fbox.boxlist/getboxlist', { area_id: String(areaId) }, { token })
    ).json();
    expect(options.data).toEqual([
      { id: a.id, name: 'Alpha', kind: 'immersion' },
      { id: b.id, name: 'Bravo', kind: 'air' },
      { id: c.id, name: 'Charlie', kind: 'hydro' },
    ]);
  });

  it('creates and edits with validation naming the field', async () => {
    const bad = async (body: Record<string, unknown>, url = '/index/fbox.boxlist/create') =>
      (await post(t.app, url, { area_id: areaId, ...body }, { token })).json();
    expect(await bad({ kind: 'air' })).toMatchObject({ code: -2, msg: 'Name: is required' });
    expect(await bad({ name: 'X', kind: 'wind' })).toMatchObject({
      code: -2,
      msg: 'Type: must be air, immersion or hydro',
    });
    expect(await bad({ name: 'X', kind: 'air', voltage_min: 300 })).toMatchObject({
      code: -2,
      msg: 'Minimum voltage: must be a number from 342 to 418',
    });
    expect(await bad({ name: 'X', kind: 'air', voltage_min: 400, voltage_max: 350 })).toMatchObject({
      code: -2,
      data: { errors: [{ field: 'voltage_min', rule: 'rule.minNotAboveMax' }] },
    });
    expect(await bad({ name: 'X', kind: 'air', collector1_mac: 'nope' })).toMatchObject({ code: -2 });
    expect(await bad({ name: 'X', kind: 'air', meter1_ratio: 0 })).toMatchObject({
      code: -2,
      msg: 'Meter 1 sensor ratio: must be a number greater than 0',
    });

    const created = await post(
      t.app,
      `/index/fbox.boxlist/create?area_id=${areaId}`,
      {
        name: 'New',
        kind: 'air',
        collector1_mac: '00:1a:2b:3c:4d:5e',
        collector1_password: 's3cret',
        meter1_ratio: '40',
      },
      { token, form: true },
    );
    const box = created.json();
    expect(box).toMatchObject({ code: 1, data: { name: 'New', kind: 'air', voltage_min: 342 } });
    expect(box.data.collectors[0]).toEqual({
      no: 1,
      mac: '00:1a:2b:3c:4d:5e',
      account: '',
      password_set: true,
    });
    expect(box.data.meters[0]).toMatchObject({ no: 1, sensor_ratio: 40 });
    expect(JSON.stringify(box)).not.toContain('s3cret');

    const edited = await post(
      t.app,
      '/index/fbox.boxlist/edit',
      { area_id: areaId, id: box.data.id, name: 'Renamed', voltage_max: 400, collector1_password: '' },
      { token },
    );
    expect(edited.json()).toMatchObject({ code: 1, data: { name: 'Renamed', voltage_max: 400 } });
    expect(edited.json().data.collectors[0].password_set).toBe(true);
    expect(await bad({ id: box.data.id, voltage_min: 410 }, '/index/fbox.boxlist/edit')).toMatchObject({
      code: -2,
      data: { errors: [{ field: 'voltage_min', rule: 'rule.minNotAboveMax' }] },
    });
  });

  it('stores settings and sends them as a fbox.config command', async () => {
    const box = await liveBox();
    const setting = {
      area_id: areaId,
      id: box.id,
      voltage_min: 350,
      voltage_max: 410,
      temperature_max: 45,
      humidity_max: 80,
    };
    expect(
      (
        await post(t.app, '/index/fbox.boxlist/setting', { ...setting, reporting_interval: 61 }, { token })
      ).json(),
    ).toMatchObject({
      code: -2,
      msg: 'Reporting interval: must be a number from 5 to 60',
    });
    expect(
      (
        await post(
          t.app,
          '/index/fbox.boxlist/setting',
          { ...setting, voltage_max: 419, reporting_interval: 10 },
          { token },
        )
      ).json().code,
    ).toBe(-2);
    // Any whole number of seconds in the range, as the mine's FBOX configuration allows (12 s).
    const res = (
      await post(t.app, '/index/fbox.boxlist/setting', { ...setting, reporting_interval: 12 }, { token })
    ).json();
    expect(res).toMatchObject({ code: 1, data: { status: 'pending' } });
    const command = await t.app.db
      .selectFrom('commands')
      .selectAll()
      .where('id', '=', res.data.command_id)
      .executeTakeFirstOrThrow();
    expect(command).toMatchObject({ kind: 'fbox.config', fbox_id: box.id, area_id: areaId });
    expect(JSON.parse(command.params)).toEqual({
      voltage_min: 350,
      voltage_max: 410,
      temperature_max: 45,
      humidity_max: 80,
      reporting_interval_s: 12,
      // The rest of the box's effective configuration (modules/fbox-config).
      delay_switch_ms: 0,
    });
    expect((await detail(box.id)).data).toMatchObject({
      voltage_min: 350,
      voltage_max: 410,
      reporting_interval_s: 12,
      thresholds: { temperature_max: 45, humidity_max: 80 },
    });
  });

  it("answers not found for another master's area and boxes, changing nothing and sending nothing", async () => {
    const box = await liveBox();
    const intruder = await createMaster(t.app);
    const intruderToken = await login(t.app, intruder);
    const intruderArea = (await createArea(t.app, intruder.id)).id;
    expect((await detail(box.id, { tk: intruderToken })).code).toBe(Code.NOT_FOUND);
    expect((await detail(box.id, { tk: intruderToken, area: intruderArea })).code).toBe(Code.NOT_FOUND);
    const calls: [string, Record<string, unknown>][] = [
      ['/index/fbox.boxlist/edit', { area_id: intruderArea, id: box.id, name: 'Stolen' }],
      ['/index/fbox.boxlist/edit', { area_id: areaId, id: box.id, name: 'Stolen' }],
      ['/index/fbox.boxlist/deleted', { area_id: intruderArea, id: box.id }],
      ['/index/fbox.boxlist/transfer', { area_id: intruderArea, id: box.id, to_area_id: intruderArea }],
      ['/index/fbox.boxlist/regenerate_mqtt', { area_id: intruderArea, id: box.id }],
      [
        '/index/fbox.boxlist/setting',
        {
          area_id: intruderArea,
          id: box.id,
          voltage_min: 350,
          voltage_max: 410,
          temperature_max: 1,
          humidity_max: 1,
          reporting_interval: 5,
        },
      ],
    ];
    for (const [url, body] of calls) {
      expect((await post(t.app, url, body, { token: intruderToken })).json().code, url).toBe(Code.NOT_FOUND);
    }
    // Transfer into a foreign area is refused too.
    expect(
      (
        await post(
          t.app,
          '/index/fbox.boxlist/transfer',
          { area_id: areaId, id: box.id, to_area_id: intruderArea },
          { token },
        )
      ).json(),
    ).toMatchObject({ code: Code.NOT_FOUND, data: { errors: [{ field: 'to_area_id' }] } });
    expect((await detail(box.id)).data).toMatchObject({ name: 'Alpha', area_id: areaId });
    expect(await t.app.db.selectFrom('commands').selectAll().execute()).toEqual([]);
  });

  it('transfers a box with its tanks and miners to another mine of the caller', async () => {
    const box = await liveBox();
    const tank = await createTank(t.app, box, 1, { state: { online: 1 } });
    await createMiners(t.app, box, [{ sn: 'A1', tank_id: tank }]);
    const other = (await createArea(t.app, master.id)).id;
    const res = await post(
      t.app,
      '/index/fbox.boxlist/transfer',
      { area_id: areaId, id: box.id, to_area_id: other },
      { token },
    );
    expect(res.json()).toMatchObject({ code: 1, data: null });
    expect((await detail(box.id)).code).toBe(Code.NOT_FOUND);
    expect((await detail(box.id, { area: other })).data.sub_box_list).toHaveLength(1);
    const minerAreas = await t.app.db.selectFrom('miner_state').select('area_id').execute();
    expect(minerAreas).toEqual([{ area_id: other }]);
  });

  it('lets a sub-account read without gateway secrets but not change boxes', async () => {
    const box = await liveBox();
    const sub = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    const d = (await detail(box.id, { tk: sub })).data;
    expect(d.name).toBe('Alpha');
    expect(d).not.toHaveProperty('mqtt_password');
    expect(d).not.toHaveProperty('mqtt_username');
    expect(
      (
        await post(
          t.app,
          '/index/fbox.boxlist/regenerate_mqtt',
          { area_id: areaId, id: box.id },
          { token: sub },
        )
      ).json().code,
    ).toBe(Code.FORBIDDEN);
    expect(
      (
        await post(
          t.app,
          '/index/fbox.boxlist/create',
          { area_id: areaId, name: 'X', kind: 'air' },
          { token: sub },
        )
      ).json().code,
    ).toBe(Code.FORBIDDEN);
  });

  it('shows gateway credentials to an administrator of the mine, as docs/api.md says', async () => {
    const box = await liveBox();
    const admin = await login(
      t.app,
      await createSubAccount(t.app, master, [areaId], { authority: 'administrator' }),
    );
    const d = (await detail(box.id, { tk: admin })).data;
    expect(d.mqtt_username).toMatch(/^gw-/);
    expect(d.mqtt_password).toBe((await detail(box.id)).data.mqtt_password);
    const res = (
      await post(
        t.app,
        '/index/fbox.boxlist/regenerate_mqtt',
        { area_id: areaId, id: box.id },
        { token: admin },
      )
    ).json();
    expect(res).toMatchObject({ code: 1, data: { mqtt_username: d.mqtt_username } });
  });

  it('regenerates the MQTT password for a master', async () => {
    const box = await liveBox();
    const before = (await detail(box.id)).data.mqtt_password;
    const res = (
      await post(t.app, '/index/fbox.boxlist/regenerate_mqtt', { area_id: areaId, id: box.id }, { token })
    ).json();
    expect(res.code).toBe(1);
    expect(res.data.mqtt_password).not.toBe(before);
    expect((await detail(box.id)).data.mqtt_password).toBe(res.data.mqtt_password);
  });

  it('buckets history from raw samples and rollups by interval', async () => {
    const box = await liveBox();
    const t0 = Date.UTC(2025, 0, 1, 0, 0, 0);
    await t.app.db
      .insertInto('fbox_samples')
      .values(
        [0, 10, 20, 40, 70].map((s) => ({
          fbox_id: box.id,
          ts: t0 + s * 1000,
          power_kw: s === 20 ? -999 : 100 + s,
          temperature: 30,
          humidity: 50,
          hashrate_total: 1000,
          energy_kwh: 0,
        })),
      )
      .execute();
    const history = async (query: Record<string, number>) =>
      (
        await get(
          t.app,
          '/index/fbox.boxlist/history',
          Object.fromEntries(
            Object.entries({ area_id: areaId, id: box.id, ...query }).map(([k, v]) => [k, String(v)]),
          ),
          { token },
        )
      ).json();
    const raw = await history({ interval: 30, from: t0, to: t0 + 90_000 });
    expect(raw.data.source).toBe('raw');
    expect(raw.data.points).toEqual([
      { ts: t0, power_kw: 105, temperature: 30, humidity: 50, hashrate: 1000, energy_kwh: 0.875 },
      { ts: t0 + 30_000, power_kw: 140, temperature: 30, humidity: 50, hashrate: 1000, energy_kwh: 1.167 },
      { ts: t0 + 60_000, power_kw: 170, temperature: 30, humidity: 50, hashrate: 1000, energy_kwh: 1.417 },
    ]);
    // 1-hour rollups up to 01:00, the rest from 1-minute rollups (not yet rolled up into hours).
    const row = (bucket: number, power: number, samples: number): FboxRollupTable =>
      ({
        fbox_id: box.id,
        bucket_ts: bucket,
        samples,
        ...Object.fromEntries(
          ['power_kw', 'temperature', 'humidity', 'hashrate_total'].flatMap((m) =>
            ['avg', 'min', 'max'].map((s) => [`${m}_${s}`, m === 'power_kw' ? power : 10]),
          ),
        ),
      }) as FboxRollupTable;
    await t.app.db
      .insertInto('fbox_samples_1h')
      .values([row(t0, 100, 120), row(t0 + 3_600_000, 200, 120)])
      .execute();
    await t.app.db
      .insertInto('fbox_samples_1m')
      .values([row(t0 + 7_200_000, 300, 2), row(t0 + 7_260_000, 500, 2)])
      .execute();
    const hourly = await history({ interval: 3600, from: t0, to: t0 + 4 * 3_600_000 });
    expect(hourly.data.source).toBe('1h');
    expect(hourly.data.points.map((p: { power_kw: number | null }) => p.power_kw)).toEqual([
      100,
      200,
      400,
      null,
    ]);
    // Past the raw samples' retention the 1-minute rollups answer.
    t.clock.advance((t.app.config.retentionRawHours + 1) * 3_600_000);
    token = await login(t.app, master);
    expect((await history({ interval: 30, from: t0, to: t0 + 90_000 })).data.source).toBe('1m');
    expect((await history({ interval: 45, from: t0, to: t0 + 1 })).code).toBe(-2);
    expect((await history({ interval: 30, from: t0, to: t0 + 2 * 86_400_000 })).msg).toContain(
      'too many points',
    );
    expect((await history({ interval: 60, from: t0 + 10, to: t0 })).msg).toBe(
      'End time: end must be later than start',
    );
  });
});
