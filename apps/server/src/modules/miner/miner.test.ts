import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank } from '../../test/device-factories.js';
import { createArea, createMaster, get, login, post, type TestUser } from '../../test/factories.js';
import { waitFor } from '../../test/mqtt-client.js';

describeDb('miner detail, actions, commands and export (fbox.miner)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let minerIds: number[];
  let foreignMinerId: number;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    const box = await createFbox(t.app, areaId, { name: 'Box 1' });
    const tank = await createTank(t.app, box, 1, { name: 'Tank A' });
    minerIds = await createMiners(t.app, box, [
      {
        sn: 'SN001',
        worker: 'acct.w1',
        ip: '10.0.0.1',
        tank_id: tank,
        outlet: 3,
        online: 1,
        hashrate_realtime: 110.56896103896104,
        uptime_s: 93_784,
      },
      { sn: 'SN002', worker: '=HYPERLINK("x")', ip: '10.0.0.2', fault: 'fan, chain' },
    ]);
    const other = await createMaster(t.app);
    const otherBox = await createFbox(t.app, (await createArea(t.app, other.id)).id);
    foreignMinerId = (await createMiners(t.app, otherBox, [{ sn: 'SN999' }]))[0]!;
  });
  afterEach(() => t.close());

  const act = async (path: string, body: Record<string, unknown>, options: { form?: boolean } = {}) =>
    (
      await post(t.app, `/index/fbox.miner/${path}`, { area_id: areaId, ...body }, { token, ...options })
    ).json();
  const commands = () => t.app.db.selectFrom('commands').selectAll().orderBy('created_at').execute();

  it('answers the detail with names, uptime seconds and recent commands', async () => {
    const res = (
      await get(
        t.app,
        '/index/fbox.miner/detail',
        { area_id: String(areaId), id: String(minerIds[0]) },
        { token },
      )
    ).json();
    expect(res).toMatchObject({
      code: 1,
      data: {
        id: minerIds[0],
        sn: 'SN001',
        fbox_name: 'Box 1',
        tank_name: 'Tank A',
        outlet: 3,
        status: 'online',
        hashrate_realtime: 110.56896103896104,
        uptime_s: 93_784,
        chip_max_temp: -999,
        commands: [],
      },
    });
    await act('restart', { ids: [minerIds[0]] });
    t.clock.advance(1000);
    await act('changemode', { ids: [minerIds[0]], mode: 'low' });
    const after = (
      await get(
        t.app,
        '/index/fbox.miner/detail',
        { area_id: String(areaId), id: String(minerIds[0]) },
        { token },
      )
    ).json();
    // Newest first; the mode it sets is said (the parameters themselves never leave the server).
    expect(after.data.commands).toMatchObject([
      { kind: 'miner.mode', variant: 'low', status: 'pending', miner_id: minerIds[0] },
      { kind: 'miner.restart', variant: null, status: 'pending', miner_id: minerIds[0] },
    ]);
    expect(after.data.commands[0]).not.toHaveProperty('params');
  });

  it('issues one command per miner with a batch id and per-miner outcomes; foreign ids get none', async () => {
    const res = await act(
      'restart',
      { ids: `${minerIds[0]},${minerIds[1]},${foreignMinerId},999999` },
      { form: true },
    );
    expect(res.code).toBe(1);
    expect(res.data.batch_id).toMatch(/^[0-9a-f]{24}$/);
    expect(res.data.commands).toEqual([
      { miner_id: minerIds[0], command_id: expect.any(String), status: 'pending' },
      { miner_id: minerIds[1], command_id: expect.any(String), status: 'pending' },
      { miner_id: foreignMinerId, command_id: null, status: 'not_found' },
      { miner_id: 999999, command_id: null, status: 'not_found' },
    ]);
    const rows = await commands();
    expect(rows).toHaveLength(2);
    expect(rows.map((r) => [r.miner_id, r.kind, r.batch_id, r.created_by])).toEqual([
      [minerIds[0], 'miner.restart', res.data.batch_id, master.id],
      [minerIds[1], 'miner.restart', res.data.batch_id, master.id],
    ]);
    expect(JSON.parse(rows[0]!.target)).toEqual({ sn: 'SN001', outlet: 3 });

    const ids = res.data.commands.slice(0, 2).map((c: { command_id: string }) => c.command_id);
    const status = (await get(t.app, '/index/fbox.command/status', { ids: ids.join(',') }, { token })).json();
    expect(status.data).toHaveLength(2);
    expect(status.data[0]).toMatchObject({
      kind: 'miner.restart',
      status: 'pending',
      batch_id: res.data.batch_id,
      acked_at: null,
    });
    const batch = (
      await get(
        t.app,
        '/index/fbox.command/batch',
        { area_id: String(areaId), batch_id: res.data.batch_id },
        { token },
      )
    ).json();
    expect(batch.data.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
    // Another master cannot read them.
    const intruder = await login(t.app, await createMaster(t.app));
    expect(
      (await get(t.app, '/index/fbox.command/status', { ids: ids.join(',') }, { token: intruder })).json()
        .data,
    ).toEqual([]);
    expect(
      (
        await get(
          t.app,
          '/index/fbox.command/batch',
          { area_id: String(areaId), batch_id: res.data.batch_id },
          { token: intruder },
        )
      ).json().code,
    ).toBe(Code.NOT_FOUND);
  });

  it('maps each action to its command kind and parameters', async () => {
    const one = { ids: [minerIds[0]] };
    await act('changemode', { ...one, mode: 'low' });
    await act('resaveaccount', one);
    await act('autooverclock', { ...one, status: 'on', min: 100, max: 200 });
    await act('multipleoperate', { ...one, action: 'high' });
    const pool = await act('changpooladdress', {
      ...one,
      pool_address: 'stratum+tcp://pool.example.com:3333',
      worker: 'acct.w9',
      password: 'x',
    });
    expect(pool.code).toBe(1);
    expect(JSON.stringify(pool)).not.toContain('"x"');
    const rows = await commands();
    expect(rows.map((r) => [r.kind, JSON.parse(r.params)])).toEqual([
      ['miner.mode', { mode: 'low' }],
      ['miner.resave_account', {}],
      ['miner.overclock', { status: 'on', min: 100, max: 200 }],
      ['miner.mode', { mode: 'high' }],
      [
        'miner.pool',
        // The password is send-only (DESIGN §9): see command-secrets.test.ts for the gateway's side.
        { pool_address: 'stratum+tcp://pool.example.com:3333', worker: 'acct.w9' },
      ],
    ]);
  });

  it('validates action bodies and names the field', async () => {
    const one = { ids: [minerIds[0]] };
    expect(await act('changpooladdress', { ...one, worker: 'w' })).toMatchObject({
      code: -2,
      msg: 'Pool address: is required',
    });
    expect(await act('changpooladdress', { ...one, worker: 'w', pool_address: 'not a pool' })).toMatchObject({
      code: -2,
      data: { errors: [{ field: 'pool_address', rule: 'rule.poolAddress' }] },
    });
    expect(await act('changpooladdress', { ...one, pool_address: 'pool.example.com:3333' })).toMatchObject({
      code: -2,
      msg: 'Worker: is required',
    });
    expect(await act('restart', { ids: [] })).toMatchObject({
      code: -2,
      msg: 'Devices: keep at least one row',
    });
    expect(await act('restart', { ids: 'a,b' })).toMatchObject({ code: -2 });
    expect(await act('changemode', { ...one, mode: 'turbo' })).toMatchObject({
      code: -2,
      msg: 'Mode: must be high or low',
    });
    expect(await act('autooverclock', { ...one, status: 'on', min: 300, max: 200 })).toMatchObject({
      code: -2,
      data: { errors: [{ field: 'min', rule: 'rule.minNotAboveMax' }] },
    });
    expect(await act('multipleoperate', { ...one, action: 'explode' })).toMatchObject({ code: -2 });
    expect(await commands()).toEqual([]);
  });

  it("refuses another master's area and deletes only own miners", async () => {
    const intruder = await login(t.app, await createMaster(t.app));
    const res = await post(
      t.app,
      '/index/fbox.miner/restart',
      { area_id: areaId, ids: [minerIds[0]] },
      { token: intruder },
    );
    expect(res.json().code).toBe(Code.NOT_FOUND);
    expect(await commands()).toEqual([]);
    const del = await act('deleted', { ids: [minerIds[1], foreignMinerId] });
    expect(del).toMatchObject({ code: 1, data: { deleted: 1 } });
    expect(
      await t.app.db.selectFrom('miners').select('id').where('id', '=', foreignMinerId).execute(),
    ).toHaveLength(1);
    expect(
      await t.app.db
        .selectFrom('miner_state')
        .select('miner_id')
        .where('miner_id', '=', minerIds[1]!)
        .execute(),
    ).toEqual([]);
  });

  it('exports the current filter as CSV, safe against formula injection', async () => {
    // The reader is five hours behind UTC: the file is named with their date, the day before.
    await t.app.db.updateTable('users').set({ time_zone: 'UTC-5' }).where('id', '=', master.id).execute();
    const res = await get(
      t.app,
      '/index/fbox.miner/export',
      { area_id: String(areaId), sort: '-sn' },
      { token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="miners-${areaId}-2024-12-31.csv"; filename*=UTF-8''miners-${areaId}-2024-12-31.csv`,
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toMatch(/^SN,Worker,Model,/);
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^SN002,'=HYPERLINK\(""x""\)|^SN002,"'=HYPERLINK\(""x""\)"/);
    // Codes in words, no -999, measured values rounded.
    expect(lines[1]!.endsWith(',Offline,High,"Fan, Hash board chain",,,,,,,,')).toBe(true);
    expect(lines[2]).toMatch(/^SN001,acct\.w1,/);
    expect(lines[2]).toContain(',Online,High,,,,,110.57,');
    const filtered = await get(
      t.app,
      '/index/fbox.miner/export',
      { area_id: String(areaId), status: 'online' },
      { token },
    );
    expect(filtered.body.trim().split('\r\n')).toHaveLength(2);
    const zh = await get(
      t.app,
      '/index/fbox.miner/export',
      { area_id: String(areaId) },
      { token, headers: { lang: 'zh-cn' } },
    );
    expect(zh.body).toContain('矿工名');
    expect(zh.body).toContain(',离线,高功率,风扇、算力板链路,');
    // Failures stay JSON envelopes.
    const foreign = await get(t.app, '/index/fbox.miner/export', { area_id: '999999' }, { token });
    expect(foreign.json()).toMatchObject({ code: Code.NOT_FOUND });
    expect((await get(t.app, '/index/fbox.miner/export', { area_id: String(areaId) })).json().code).toBe(
      Code.NOT_LOGGED_IN,
    );
  });

  it('lists distinct filter values and miner history', async () => {
    const res = (
      await get(t.app, '/index/fbox.miner/filters', { area_id: String(areaId) }, { token })
    ).json();
    expect(res.data).toEqual({ models: [], brands: [], pools: [], faults: ['fan, chain'] });
    const t0 = Date.UTC(2025, 0, 1);
    await t.app.db
      .insertInto('miner_samples')
      .values([
        { miner_id: minerIds[0]!, ts: t0, hashrate: 100, power_w: 3000, chip_max_temp: 70, online: 1 },
        {
          miner_id: minerIds[0]!,
          ts: t0 + 20_000,
          hashrate: 110,
          power_w: 3100,
          chip_max_temp: -999,
          online: 1,
        },
      ])
      .execute();
    const history = (
      await get(
        t.app,
        '/index/fbox.miner/history',
        {
          area_id: String(areaId),
          id: String(minerIds[0]),
          interval: '30',
          from: String(t0),
          to: String(t0 + 60_000),
        },
        { token },
      )
    ).json();
    expect(history.data.points).toEqual([
      { ts: t0, hashrate: 105, power_w: 3050, chip_max_temp: 70 },
      { ts: t0 + 30_000, hashrate: null, power_w: null, chip_max_temp: null },
    ]);
  });

  it('offers each setting of the mine once, sorted, and none of another mine', async () => {
    const box = await createFbox(t.app, areaId, { name: 'Box 2' });
    const seeds = [
      { sn: 'F1', model: 'S21', brand: 'Antminer', pool: 'ViaBTC', fault: 'fan' },
      { sn: 'F2', model: 'M50S', brand: 'Whatsminer', pool: 'F2Pool', fault: '' },
      { sn: 'F3', model: 'S21', brand: 'Antminer', pool: 'AntPool', fault: 'chain' },
      { sn: 'F4', model: 'A1366', brand: 'Avalon', pool: 'ViaBTC', fault: 'fan' },
      { sn: 'F5', model: '', brand: '', pool: '', fault: '' },
    ];
    await createMiners(t.app, box, seeds);
    const other = await createMaster(t.app);
    const foreignBox = await createFbox(t.app, (await createArea(t.app, other.id)).id);
    await createMiners(t.app, foreignBox, [
      { sn: 'X1', model: 'T21', brand: 'Foreign', pool: 'Foundry', fault: 'temp_high' },
    ]);
    const res = (
      await get(t.app, '/index/fbox.miner/filters', { area_id: String(areaId) }, { token })
    ).json();
    expect(res.data).toEqual({
      models: ['A1366', 'M50S', 'S21'],
      brands: ['Antminer', 'Avalon', 'Whatsminer'],
      pools: ['AntPool', 'F2Pool', 'ViaBTC'],
      faults: ['chain', 'fan', 'fan, chain'],
    });
  });
});

describeDb('miner list totals (fbox.miner/index)', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let box: Awaited<ReturnType<typeof createFbox>>;
  beforeEach(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    box = await createFbox(t.app, areaId, { name: 'Box 1' });
    await createMiners(
      t.app,
      box,
      Array.from({ length: 25 }, (_, i) => ({ sn: `SN${i}` })),
    );
  });
  afterEach(() => t.close());

  const total = async () =>
    (
      await get(
        t.app,
        '/index/fbox.miner/index',
        { area_id: String(areaId), page: '1', limit: '20' },
        { token },
      )
    ).json().data.total as number;
  /** Lets a count started in the background finish. */
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

  it('answers a stale total at once, counts it again in the background, and counts at once when it is old', async () => {
    expect(await total()).toBe(25);
    await createMiners(
      t.app,
      box,
      Array.from({ length: 5 }, (_, i) => ({ sn: `NEW${i}` })),
    );
    // Within 3 s the total is reused as it is.
    expect(await total()).toBe(25);
    await settle();
    expect(await total()).toBe(25);
    // Older: answered as it was while it is counted again; the next request has the new count.
    t.clock.advance(4000);
    expect(await total()).toBe(25);
    await waitFor(async () => (await total()) === 30);
    // Nobody asked for 30 s: the request counts before it answers.
    await createMiners(
      t.app,
      box,
      Array.from({ length: 5 }, (_, i) => ({ sn: `LATE${i}` })),
    );
    t.clock.advance(31_000);
    expect(await total()).toBe(35);
  });
});
