import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createMiners,
  createTank,
  type MinerSeed,
  setMinerState,
  type TestFbox,
} from '../../test/device-factories.js';
import { createArea, createMaster, login, post, type TestUser } from '../../test/factories.js';
import {
  ackAll,
  addGroup,
  api,
  engineWorld,
  items,
  runUntil,
  sheetRows,
  unzip,
} from '../../test/task-engine-harness.js';

const s = 1000;
const minute = 60 * s;
const hour = 60 * minute;

describeDb('task engine: watchdog, PDU and temperature semantics', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let box: TestFbox;

  beforeEach(async () => {
    ({ t, master, token, areaId, box } = await engineWorld());
  });
  afterEach(() => t.close());

  let groups = 0;
  const group = (type: string, minerIds: number[]) =>
    addGroup(t.app, token, areaId, { name: `G${++groups} ${type}`, type }, minerIds);
  const miners = (seeds: MinerSeed[]) => createMiners(t.app, box, seeds);
  const rebootTask = async (kind: 'miner' | 'pdu', minerIds: number[], over: Record<string, unknown> = {}) =>
    api(t.app, token, 'taskReboot/add', {
      area_id: areaId,
      kind,
      name: `${kind} watchdog`,
      hashrate_threshold: 50,
      duration_seconds: 600,
      reboot_interval_seconds: 1800,
      reboot_limit: 3,
      start_at: t.clock.ms,
      end_at: t.clock.ms + 24 * hour,
      simultaneous_count: 5,
      batch_interval_seconds: 0,
      group_ids: [await group(kind === 'pdu' ? 'pdu_reboot' : 'miner_reboot', minerIds)],
      ...(kind === 'pdu' && { power_off_seconds: 20 }),
      ...over,
    });
  const setMiner = (id: number, values: { hashrate_realtime?: number; online?: number; mode?: string }) =>
    setMinerState(t.app.db, values, id);

  it('restarts a miner whose hashrate stayed low for the duration, not before, with an acknowledged command', async () => {
    const [low, fine, offline] = await miners([
      { sn: 'LOW', online: 1, hashrate_realtime: 10, worker: 'acct.low', ip: '10.0.0.9' },
      { sn: 'FINE', online: 1, hashrate_realtime: 100 },
      { sn: 'OFF', online: 0, hashrate_realtime: 0 },
    ]);
    const start = t.clock.ms;
    const task = await rebootTask('miner', [low!, fine!, offline!]);
    await runUntil([t.app], t.clock, start + 600 * s - 1);
    expect(await items(t.app)).toHaveLength(0);
    await runUntil([t.app], t.clock, start + 600 * s);
    const [item] = await items(t.app);
    expect(await items(t.app)).toHaveLength(1);
    expect(item).toMatchObject({
      task_id: task.id,
      miner_id: low,
      action: 'restart',
      sn: 'LOW',
      worker: 'acct.low',
      ip: '10.0.0.9',
      fbox_name: 'Box 1',
      reading: 10,
      status: 'acknowledged',
      created_at: start + 600 * s,
    });
    const command = await t.app.db
      .selectFrom('commands')
      .selectAll()
      .where('id', '=', item!.command_id)
      .executeTakeFirstOrThrow();
    expect(command).toMatchObject({ kind: 'miner.restart', miner_id: low, status: 'acknowledged' });
    expect(JSON.parse(command.target)).toEqual({ sn: 'LOW' });
    // The queue shows the action and when the task last looked.
    const listed = await api(t.app, token, 'taskReboot/list', { area_id: areaId, kind: 'miner' });
    expect(listed.items[0]).toMatchObject({ status: 'running', action_count: 1, miner_count: 3 });
    expect(listed.items[0].last_evaluated_at).toBeGreaterThanOrEqual(start + 600 * s);
  });

  it('holds the reboot interval and the reboot limit over a long run, and a recovery restarts the count of time', async () => {
    const [low, flaky] = await miners([
      { sn: 'LOW', online: 1, hashrate_realtime: 10 },
      { sn: 'FLAKY', online: 1, hashrate_realtime: 10 },
    ]);
    const start = t.clock.ms;
    await rebootTask('miner', [low!, flaky!], { reboot_interval_seconds: 1800, reboot_limit: 3 });
    // FLAKY recovers after 5 minutes and drops again at 10: its duration counts from then.
    await runUntil([t.app], t.clock, start + 5 * minute);
    await setMiner(flaky!, { hashrate_realtime: 80 });
    await runUntil([t.app], t.clock, start + 10 * minute);
    await setMiner(flaky!, { hashrate_realtime: 5 });
    await runUntil([t.app], t.clock, start + 3 * hour);
    const all = await items(t.app);
    const times = (minerId: number) =>
      all.filter((i) => i.miner_id === minerId).map((i) => (i.created_at - start) / s);
    expect(times(low!)).toEqual([600, 2400, 4200]);
    const flakyTimes = times(flaky!);
    expect(flakyTimes).toHaveLength(3);
    expect(flakyTimes[0]).toBeGreaterThanOrEqual(1200);
    expect(flakyTimes[0]).toBeLessThanOrEqual(1200 + 30);
    for (let i = 1; i < flakyTimes.length; i++)
      expect(flakyTimes[i]! - flakyTimes[i - 1]!).toBeGreaterThanOrEqual(1800);
    expect(all.every((i) => i.status === 'acknowledged')).toBe(true);
    // The engine looked at the running task at least every 30 s.
    const state = await t.app.db.selectFrom('task_miner_state').selectAll().orderBy('miner_id').execute();
    expect(state.map((r) => r.action_count)).toEqual([3, 3]);
  }, 90_000);

  it('acts on at most the simultaneous count per batch, batches the interval apart', async () => {
    const ids = await miners(
      Array.from({ length: 5 }, (_, i) => ({ sn: `B-${i}`, online: 1, hashrate_realtime: 1 })),
    );
    const start = t.clock.ms;
    await rebootTask('miner', ids, {
      simultaneous_count: 2,
      batch_interval_seconds: 60,
      duration_seconds: 30,
    });
    await runUntil([t.app], t.clock, start + 10 * minute);
    const all = await items(t.app);
    expect(all.map((i) => (i.created_at - start) / s)).toEqual([30, 30, 90, 90, 150]);
    expect(new Set(all.map((i) => i.miner_id)).size).toBe(5);
    const runs = await t.app.db.selectFrom('task_runs').selectAll().orderBy('id').execute();
    expect(runs).toHaveLength(3);
    expect(runs.every((r) => r.finished_at !== null)).toBe(true);
  });

  it('PDU: powers off, waits, powers on, respecting the count, the interval and the Delay Switch', async () => {
    await t.app.db
      .updateTable('users')
      .set({ global_config: JSON.stringify({ delay_switch_value: 5000 }) })
      .where('id', '=', master.id)
      .execute();
    const ids = await miners([
      { sn: 'P-1', online: 0, hashrate_realtime: 0, outlet: 11 },
      { sn: 'P-2', online: 1, hashrate_realtime: 3, outlet: 12 },
      { sn: 'P-3', online: 1, hashrate_realtime: 4, outlet: 13 },
      { sn: 'P-4', online: 1, hashrate_realtime: 3 }, // no outlet: a PDU task cannot act on it
      { sn: 'P-5', online: 1, hashrate_realtime: 90, outlet: 15 },
    ]);
    const start = t.clock.ms;
    const task = await rebootTask('pdu', ids, {
      simultaneous_count: 2,
      batch_interval_seconds: 30,
      duration_seconds: 30,
      power_off_seconds: 20,
      reboot_limit: 1,
    });
    await runUntil([t.app], t.clock, start + 10 * minute);
    const all = await items(t.app, task.id);
    expect(all.map((i) => [(i.created_at - start) / s, i.action, i.sn])).toEqual([
      [30, 'power_off', 'P-1'],
      [30, 'power_off', 'P-2'],
      [50, 'power_on', 'P-1'],
      [50, 'power_on', 'P-2'],
      // The next batch waits for the power-on batch, then the interval (30 s) and Delay Switch (5 s).
      [85, 'power_off', 'P-3'],
      [105, 'power_on', 'P-3'],
    ]);
    const byId = new Map(
      (
        await t.app.db.selectFrom('commands').select(['id', 'kind', 'target', 'params', 'status']).execute()
      ).map((c) => [c.id, c]),
    );
    const commands = all.map((i) => byId.get(i.command_id)!);
    expect(byId.size).toBe(6);
    expect(commands).toHaveLength(6);
    expect(commands.every((c) => c.kind === 'pdu.outlet' && c.status === 'acknowledged')).toBe(true);
    expect(commands.map((c) => [JSON.parse(c.target).outlet, JSON.parse(c.params).status])).toEqual([
      [11, 'off'],
      [12, 'off'],
      [11, 'on'],
      [12, 'on'],
      [13, 'off'],
      [13, 'on'],
    ]);
    const history = await api(t.app, token, 'taskReboot/history/list', { area_id: areaId, kind: 'pdu' });
    expect(history.items).toMatchObject([
      { task_id: task.id, miner_count: 1, acknowledged_count: 2, failed_count: 0, pending_count: 0 },
      { task_id: task.id, miner_count: 2, acknowledged_count: 4, failed_count: 0, pending_count: 0 },
    ]);
    expect(history.items.every((r: { finished_at: number | null }) => r.finished_at !== null)).toBe(true);
    const detail = await api(t.app, token, 'taskReboot/history/items', {
      area_id: areaId,
      run_id: history.items[1].id,
    });
    expect(detail.total).toBe(4);
    // Nothing for the miner queue.
    expect(
      (await api(t.app, token, 'taskReboot/history/list', { area_id: areaId, kind: 'miner' })).total,
    ).toBe(0);
  });

  it('PDU: a stopped task still powers on the outlets it switched off', async () => {
    const ids = await miners([{ sn: 'P-1', online: 0, outlet: 1 }]);
    const start = t.clock.ms;
    const task = await rebootTask('pdu', ids, { duration_seconds: 30, power_off_seconds: 60 });
    await runUntil([t.app], t.clock, start + 40 * s);
    expect((await items(t.app)).map((i) => i.action)).toEqual(['power_off']);
    await api(t.app, token, 'taskReboot/stop', { area_id: areaId, id: task.id });
    await runUntil([t.app], t.clock, start + 10 * minute);
    expect((await items(t.app)).map((i) => [i.action, (i.created_at - start) / s])).toEqual([
      ['power_off', 30],
      ['power_on', 90],
    ]);
  });

  it('records failed and timed-out actions with their reason', async () => {
    const [a, b] = await miners([
      { sn: 'F-1', online: 1, hashrate_realtime: 1 },
      { sn: 'F-2', online: 1, hashrate_realtime: 1 },
    ]);
    const start = t.clock.ms;
    await rebootTask('miner', [a!], { duration_seconds: 30 });
    await runUntil([t.app], t.clock, start + 30 * s, { ack: false });
    await ackAll(t.app, false);
    await rebootTask('miner', [b!], { duration_seconds: 30, name: 'second' });
    await runUntil([t.app], t.clock, start + 70 * s, { ack: false });
    t.clock.advance(t.app.config.commandTimeoutMs);
    await t.app.commands.expire();
    const all = await items(t.app);
    expect(all.map((i) => [i.sn, i.status, i.error])).toEqual([
      ['F-1', 'failed', 'refused'],
      ['F-2', 'timeout', 'no acknowledgement from the gateway'],
    ]);
    const runs = await api(t.app, token, 'taskReboot/history/list', { area_id: areaId, kind: 'miner' });
    expect(runs.items.map((r: { failed_count: number }) => r.failed_count)).toEqual([1, 1]);
  });

  it('temperature: rising oil switches the group to low after the duration; cooling below the hysteresis switches it back', async () => {
    const tank = await createTank(t.app, box, 1, { state: { oil_out_temp: 50, online: 1 } });
    const ids = await miners([
      { sn: 'T-1', online: 1, tank_id: tank, mode: 'high' },
      { sn: 'T-2', online: 1, tank_id: tank, mode: 'high' },
      { sn: 'T-3', online: 1, tank_id: tank, mode: 'low' }, // already low: left alone
    ]);
    const oil = (v: number) =>
      t.app.db.updateTable('tank_state').set({ oil_out_temp: v }).where('tank_id', '=', tank).execute();
    const start = t.clock.ms;
    const task = await api(t.app, token, 'taskTemp/add', {
      area_id: areaId,
      name: 'Oil guard',
      group_ids: [await group('temp_mode', ids)],
      source: 'tank_oil_outlet',
      threshold: 60,
      duration_seconds: 60,
      start_at: start,
      end_at: start + 24 * hour,
    });
    await runUntil([t.app], t.clock, start + 5 * minute);
    expect(await items(t.app)).toHaveLength(0);
    await oil(65);
    const hotAt = t.clock.ms;
    await runUntil([t.app], t.clock, hotAt + 59 * s);
    expect(await items(t.app)).toHaveLength(0);
    await runUntil([t.app], t.clock, hotAt + 75 * s);
    let all = await items(t.app);
    expect(all.map((i) => [i.sn, i.action, i.reading, i.status])).toEqual([
      ['T-1', 'mode_low', 65, 'acknowledged'],
      ['T-2', 'mode_low', 65, 'acknowledged'],
    ]);
    const modes = await t.app.db.selectFrom('commands').select(['params']).execute();
    expect(modes.map((c) => JSON.parse(c.params))).toEqual([{ mode: 'low' }, { mode: 'low' }]);
    // The next telemetry reports the new mode; staying hot does nothing more.
    await t.app.db.updateTable('miner_info').set({ mode: 'low' }).where('miner_id', 'in', ids).execute();
    await runUntil([t.app], t.clock, hotAt + 30 * minute);
    expect(await items(t.app)).toHaveLength(2);
    // Within the hysteresis band (above 57 °C): still low.
    await oil(58);
    await runUntil([t.app], t.clock, hotAt + 60 * minute);
    expect(await items(t.app)).toHaveLength(2);
    await oil(57);
    const coolAt = t.clock.ms;
    await runUntil([t.app], t.clock, coolAt + 59 * s);
    expect(await items(t.app)).toHaveLength(2);
    await runUntil([t.app], t.clock, coolAt + 2 * minute);
    all = await items(t.app);
    expect(all.slice(2).map((i) => [i.sn, i.action, i.reading])).toEqual([
      ['T-1', 'mode_high', 57],
      ['T-2', 'mode_high', 57],
    ]);
    const history = await api(t.app, token, 'taskTemp/history/list', { area_id: areaId, task_id: task.id });
    expect(history.total).toBe(2);
    const byTask = await api(t.app, token, 'taskTemp/history/items', { area_id: areaId, task_id: task.id });
    expect(byTask.total).toBe(4);
    // The reboot endpoints do not show temperature items.
    const wrong = (
      await post(
        t.app,
        '/ff-plat-api/api/taskReboot/history/items',
        { area_id: areaId, task_id: task.id },
        { token },
      )
    ).json();
    expect(wrong.code).toBe(-3);
  }, 60_000);

  it('exports history and items as CSV (BOM, localized header) and XLSX', async () => {
    const ids = await miners([{ sn: 'E-1', online: 1, hashrate_realtime: 2, worker: '=cmd', outlet: 4 }]);
    const start = t.clock.ms;
    const task = await rebootTask('pdu', ids, {
      duration_seconds: 30,
      power_off_seconds: 10,
      name: 'Export me',
    });
    await runUntil([t.app], t.clock, start + 2 * minute);
    const download = (path: string, body: Record<string, unknown>, lang = 'en-us') =>
      post(
        t.app,
        `/ff-plat-api/api/taskReboot/${path}`,
        { area_id: areaId, ...body },
        { token, headers: { lang } },
      );

    const csv = await download('history/list/export', { kind: 'pdu' });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(
      /attachment; filename="pdu-reboot-history-\d+-\d{4}-\d\d-\d\d\.csv"/,
    );
    const lines = csv.body.split('\r\n');
    expect(lines[0]).toBe('\uFEFFTask,Task status,Started,Finished,Miners,Acknowledged,Failed,Pending');
    // 2025-01-01 00:00:30 UTC shown in the account's zone (UTC+8).
    expect(lines[1]).toBe('Export me,Running,2025-01-01 08:00:30,2025-01-01 08:00:40,1,2,0,0');

    const zh = await download('history/items/export', { task_id: task.id }, 'zh-cn');
    const zhLines = zh.body.split('\r\n');
    expect(zhLines[0]).toContain('\uFEFF时间,矿工名,SN,IP,FBOX,操作');
    expect(zhLines[1]).toContain("'=cmd,E-1"); // formula text is neutralized
    expect(zhLines[1]).toContain('上电');
    expect(zhLines[2]).toContain('断电');

    const xlsx = await download('history/items/export', { task_id: task.id, format: 'xlsx' });
    expect(xlsx.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(xlsx.headers['content-disposition']).toMatch(/\.xlsx"/);
    const files = unzip(xlsx.rawPayload);
    expect([...files.keys()]).toContain('xl/workbook.xml');
    expect(files.get('xl/workbook.xml')!.toString()).toContain('name="Task details"');
    const rows = sheetRows(files.get('xl/worksheets/sheet1.xml')!.toString());
    expect(rows[0]).toEqual([
      'Time',
      'Worker',
      'SN',
      'IP',
      'FBOX',
      'Action',
      'Reading',
      'Result',
      'Error',
      'Finished',
      'Command',
    ]);
    expect(rows).toHaveLength(3);
    // Newest first; an empty reading leaves its cell out.
    expect(rows[1]!.slice(1, 7)).toEqual(['=cmd', 'E-1', '', 'Box 1', 'Power on', 'Acknowledged']);
    expect(rows[2]).toContain('Power off');
    expect(rows[2]).toContain(2);

    const historyXlsx = await download('history/list/export', { kind: 'pdu', format: 'xlsx' });
    const hRows = sheetRows(unzip(historyXlsx.rawPayload).get('xl/worksheets/sheet1.xml')!.toString());
    expect(hRows[1]).toEqual([
      'Export me',
      'Running',
      '2025-01-01 08:00:30',
      '2025-01-01 08:00:40',
      1,
      2,
      0,
      0,
    ]);

    // A foreign task id is "not found" before any file is made.
    const other = await createMaster(t.app);
    const otherArea = (await createArea(t.app, other.id)).id;
    const foreign = await post(
      t.app,
      '/ff-plat-api/api/taskReboot/history/items/export',
      { area_id: otherArea, task_id: task.id },
      { token: await login(t.app, other) },
    );
    expect(foreign.json()).toMatchObject({ code: -3 });
  });
});
