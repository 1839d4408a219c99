import {
  Code,
  type TaskStatus,
  type TaskTransition,
  taskStatuses,
  taskTransitions,
  transitionAllowed,
} from '@fbox/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import {
  createArea,
  createMaster,
  createSubAccount,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';

const R = '/ff-plat-api/api/taskReboot';
const T = '/ff-plat-api/api/taskTemp';
const G = '/ff-plat-api/api/minerGroup';
const hour = 3_600_000;

describeDb('reboot and temperature tasks: fields, status machine, edits (taskReboot/*, taskTemp/*)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let minerGroup: number;
  let pduGroup: number;
  let tempGroup: number;

  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    const box = await createFbox(t.app, areaId);
    const ids = await createMiners(t.app, box, [{ sn: 'S-1' }, { sn: 'S-2' }]);
    const group = async (name: string, type: string) => {
      const g = (await post(t.app, `${G}/add`, { area_id: areaId, name, type }, { token })).json().data;
      await post(t.app, `${G}/addMiner`, { area_id: areaId, group_id: g.id, miner_ids: ids }, { token });
      return g.id as number;
    };
    minerGroup = await group('M', 'miner_reboot');
    pduGroup = await group('P', 'pdu_reboot');
    tempGroup = await group('T', 'temp_mode');
  });
  afterEach(() => t.close());

  const reboot = (over: Record<string, unknown> = {}) => ({
    area_id: areaId,
    kind: 'miner',
    name: 'Watchdog',
    hashrate_threshold: 50,
    duration_seconds: 600,
    reboot_interval_seconds: 1800,
    reboot_limit: 3,
    start_at: t.clock.ms + hour,
    end_at: t.clock.ms + 10 * hour,
    simultaneous_count: 5,
    batch_interval_seconds: 60,
    group_ids: [minerGroup],
    ...over,
  });
  const temp = (over: Record<string, unknown> = {}) => ({
    area_id: areaId,
    name: 'Cool down',
    group_ids: [tempGroup],
    source: 'tank_oil_outlet',
    threshold: 60,
    duration_seconds: 300,
    start_at: t.clock.ms + hour,
    end_at: t.clock.ms + 10 * hour,
    ...over,
  });
  const call = async (path: string, body: Record<string, unknown>, as = token) =>
    (await post(t.app, path, body, { token: as })).json();

  it('adds a reboot task of each kind and lists it in its own queue', async () => {
    const miner = await call(`${R}/add`, reboot());
    expect(miner).toMatchObject({
      code: 1,
      data: {
        kind: 'miner',
        name: 'Watchdog',
        status: 'queued',
        hashrate_threshold: 50,
        reboot_interval_seconds: 1800,
        power_off_seconds: null,
        groups: [{ id: minerGroup, name: 'M' }],
        miner_count: 2,
        action_count: 0,
        last_evaluated_at: null,
      },
    });
    const pdu = await call(`${R}/add`, reboot({ kind: 'pdu', group_ids: [pduGroup], power_off_seconds: 20 }));
    expect(pdu.data).toMatchObject({ kind: 'pdu', power_off_seconds: 20, status: 'queued' });
    const list = async (kind: string, extra = {}) =>
      (await call(`${R}/list`, { area_id: areaId, kind, ...extra })).data;
    expect((await list('miner')).items.map((x: { id: number }) => x.id)).toEqual([miner.data.id]);
    expect((await list('pdu')).items.map((x: { id: number }) => x.id)).toEqual([pdu.data.id]);
    expect((await list('miner', { status: 'running' })).total).toBe(0);
    t.clock.advance(hour);
    expect((await list('miner', { status: 'running' })).total).toBe(1);
    const tempTask = await call(`${T}/add`, temp());
    expect(tempTask.data).toMatchObject({ source: 'tank_oil_outlet', threshold: 60, hysteresis: 3 });
    expect((await call(`${T}/list`, { area_id: areaId })).data.total).toBe(1);
  });

  describe('validation of every field (spec §5)', () => {
    const rebootCases: [string, Record<string, unknown>, string][] = [
      ['name required', { name: '  ' }, 'Name: is required'],
      ['name at most 50', { name: 'x'.repeat(51) }, 'Name: must be at most 50 characters'],
      [
        'hashrate at least 1',
        { hashrate_threshold: 0.5 },
        'Hashrate condition: must be a number from 1 to 1000',
      ],
      [
        'hashrate at most 1000',
        { hashrate_threshold: 1001 },
        'Hashrate condition: must be a number from 1 to 1000',
      ],
      ['hashrate required', { hashrate_threshold: undefined }, 'Hashrate condition: is required'],
      ['duration required', { duration_seconds: undefined }, 'Duration: is required'],
      ['duration at least 30 s', { duration_seconds: 10 }, 'Duration: must be a number from 30 to 86400'],
      [
        'interval from the options',
        { reboot_interval_seconds: 45 },
        'Reboot interval: must be 30 s, 1, 2, 5, 15 or 30 min, 1 or 2 h',
      ],
      [
        'reboot limit at least 1',
        { reboot_limit: 0 },
        'Maximum reboot count: must be a number from 1 to 1000',
      ],
      ['reboot limit required', { reboot_limit: undefined }, 'Maximum reboot count: is required'],
      ['start required', { start_at: undefined }, 'Start time: is required'],
      ['end required', { end_at: undefined }, 'End time: is required'],
      ['start before end', { end_at: 1_000 }, 'End time: start must be earlier than end'],
      [
        'simultaneous count required',
        { simultaneous_count: undefined },
        'Simultaneous operation count: is required',
      ],
      [
        'simultaneous count at least 1',
        { simultaneous_count: 0 },
        'Simultaneous operation count: must be a number from 1 to 1000',
      ],
      ['batch interval required', { batch_interval_seconds: undefined }, 'Operation interval: is required'],
      ['one group at least', { group_ids: [] }, 'Miner groups: choose at least one miner group'],
      ['kind from the list', { kind: 'fan' }, 'Type: is invalid'],
      ['PDU needs the off time', { kind: 'pdu' }, 'Time between power off and on: is required'],
      [
        'PDU off time at most 1 h',
        { kind: 'pdu', power_off_seconds: 3601 },
        'Time between power off and on: must be a number from 1 to 3600',
      ],
    ];
    for (const [name, over, msg] of rebootCases) {
      it(`reboot task: ${name}`, async () => {
        expect(await call(`${R}/add`, reboot(over))).toMatchObject({ code: Code.VALIDATION, msg });
        expect(await t.app.db.selectFrom('tasks').selectAll().execute()).toHaveLength(0);
      });
    }
    const tempCases: [string, Record<string, unknown>, string][] = [
      ['name at most 50', { name: 'x'.repeat(51) }, 'Name: must be at most 50 characters'],
      ['temperature required', { threshold: undefined }, 'Temperature: is required'],
      ['temperature at least 10', { threshold: 9.5 }, 'Temperature: must be at least 10'],
      ['source from the list', { source: 'air' }, 'Temperature source: is invalid'],
      ['hysteresis in range', { hysteresis: 0 }, 'Hysteresis: must be a number from 0.5 to 20'],
      ['duration at least 30 s', { duration_seconds: 5 }, 'Duration: must be a number from 30 to 86400'],
      ['one group at least', { group_ids: [] }, 'Miner groups: choose at least one miner group'],
      ['start before end', { start_at: 5_000, end_at: 5_000 }, 'End time: start must be earlier than end'],
    ];
    for (const [name, over, msg] of tempCases) {
      it(`temperature task: ${name}`, async () => {
        expect(await call(`${T}/add`, temp(over))).toMatchObject({ code: Code.VALIDATION, msg });
        expect(await t.app.db.selectFrom('tasks').selectAll().execute()).toHaveLength(0);
      });
    }
  });

  it('takes groups of its own type and mine only', async () => {
    expect(await call(`${R}/add`, reboot({ group_ids: [pduGroup] }))).toMatchObject({
      code: Code.CONFLICT,
      msg: 'Group "P" is not a group of this task type',
    });
    expect(await call(`${T}/add`, temp({ group_ids: [minerGroup] }))).toMatchObject({ code: Code.CONFLICT });
    const other = await createMaster(t.app);
    const otherArea = (await createArea(t.app, other.id)).id;
    const theirs = (
      await post(
        t.app,
        `${G}/add`,
        { area_id: otherArea, name: 'X', type: 'miner_reboot' },
        { token: await login(t.app, other) },
      )
    ).json().data;
    expect(await call(`${R}/add`, reboot({ group_ids: [minerGroup, theirs.id] }))).toMatchObject({
      code: Code.NOT_FOUND,
    });
    expect(await t.app.db.selectFrom('tasks').selectAll().execute()).toHaveLength(0);
  });

  /** A task shown in `status` now: queued, running, stopped, expired or deleted. */
  const taskIn = async (status: TaskStatus, path = R) => {
    const body = path === R ? reboot() : temp();
    const now = t.clock.ms;
    const times =
      status === 'queued'
        ? { start_at: now + hour, end_at: now + 2 * hour }
        : { start_at: now - hour, end_at: now + hour };
    const id = (await call(`${path}/add`, { ...body, ...times })).data.id as number;
    if (status === 'stopped' || status === 'expired') await call(`${path}/stop`, { area_id: areaId, id });
    if (status === 'deleted') await call(`${path}/delete`, { area_id: areaId, id });
    if (status === 'expired') {
      await t.app.db
        .updateTable('tasks')
        .set({ end_at: now - 1, start_at: now - hour })
        .where('id', '=', id)
        .execute();
    }
    return id;
  };

  const refusals: Record<TaskTransition, string> = {
    start: 'Only a stopped task whose end time has not passed can be started',
    stop: 'Only a queued or running task can be stopped',
    delete: 'The task is already deleted',
  };
  const after: Record<TaskTransition, (from: TaskStatus) => TaskStatus> = {
    start: () => 'running',
    stop: () => 'stopped',
    delete: () => 'deleted',
  };

  for (const path of [R, T]) {
    for (const status of taskStatuses) {
      for (const transition of taskTransitions) {
        const allowed = transitionAllowed(status, transition);
        it(`${path.endsWith('Temp') ? 'temperature' : 'reboot'} task: ${transition} from ${status} is ${allowed ? 'allowed' : 'refused'}`, async () => {
          const id = await taskIn(status, path);
          const listStatus = async () =>
            await t.app.db
              .selectFrom('tasks')
              .select(['state', 'start_at', 'end_at'])
              .where('id', '=', id)
              .executeTakeFirstOrThrow();
          const before = await listStatus();
          const res = await call(`${path}/${transition}`, { area_id: areaId, id });
          if (allowed) {
            expect(res.code).toBe(1);
            const shown = transition === 'delete' ? 'deleted' : res.data.status;
            expect(shown).toBe(after[transition](status));
            if (transition === 'delete') {
              // Deleted tasks leave the queue but stay findable in history by id.
              const list = await call(`${path}/list`, { area_id: areaId, kind: 'miner' });
              expect(list.data.items.map((x: { id: number }) => x.id)).not.toContain(id);
              const deleted = await call(`${path}/list`, {
                area_id: areaId,
                kind: 'miner',
                status: 'deleted',
              });
              expect(deleted.data.items.map((x: { id: number }) => x.id)).toContain(id);
            }
          } else {
            expect(res).toMatchObject({ code: Code.CONFLICT, msg: refusals[transition] });
            expect(await listStatus()).toEqual(before);
          }
        });
      }
    }
  }

  it('edits queued, running and stopped tasks; refuses expired and deleted ones', async () => {
    for (const status of ['queued', 'running', 'stopped'] as const) {
      const id = await taskIn(status);
      const res = await call(`${R}/update`, {
        ...reboot({ name: `Edited ${status}` }),
        id,
        start_at: t.clock.ms - hour,
      });
      expect(res).toMatchObject({ code: 1, data: { id, name: `Edited ${status}` } });
    }
    for (const status of ['expired', 'deleted'] as const) {
      const id = await taskIn(status);
      expect(await call(`${R}/update`, { ...reboot(), id })).toMatchObject({
        code: Code.CONFLICT,
        msg: 'An expired or deleted task cannot be edited',
      });
    }
    const tempId = await taskIn('running', T);
    expect(
      await call(`${T}/update`, { ...temp({ threshold: 70, hysteresis: 5 }), id: tempId }),
    ).toMatchObject({
      code: 1,
      data: { threshold: 70, hysteresis: 5 },
    });
    // The kind of a reboot task cannot change; a task of the other type is not found.
    const id = await taskIn('queued');
    expect(
      await call(`${R}/update`, {
        ...reboot({ kind: 'pdu', group_ids: [pduGroup], power_off_seconds: 5 }),
        id,
      }),
    ).toMatchObject({ code: Code.NOT_FOUND });
    expect(await call(`${T}/update`, { ...temp(), id })).toMatchObject({ code: Code.NOT_FOUND });
    expect(await call(`${T}/stop`, { area_id: areaId, id })).toMatchObject({ code: Code.NOT_FOUND });
  });

  it('a stopped task starts again before its end, and counts as expired after it', async () => {
    const id = await taskIn('running');
    await call(`${R}/stop`, { area_id: areaId, id });
    expect((await call(`${R}/start`, { area_id: areaId, id })).data.status).toBe('running');
    await call(`${R}/stop`, { area_id: areaId, id });
    t.clock.advance(2 * hour);
    const list = await call(`${R}/list`, { area_id: areaId, kind: 'miner' });
    expect(list.data.items[0]).toMatchObject({ id, status: 'expired' });
    expect(await call(`${R}/start`, { area_id: areaId, id })).toMatchObject({ code: Code.CONFLICT });
  });

  it('answers "not found" for tasks of another mine; operators read and control but do not change', async () => {
    const id = await taskIn('running');
    const other = await createMaster(t.app);
    const otherToken = await login(t.app, other);
    const otherArea = (await createArea(t.app, other.id)).id;
    for (const op of ['start', 'stop', 'delete']) {
      expect(await call(`${R}/${op}`, { area_id: otherArea, id }, otherToken)).toMatchObject({
        code: Code.NOT_FOUND,
      });
    }
    expect(await call(`${R}/update`, { ...reboot(), area_id: otherArea, id }, otherToken)).toMatchObject({
      code: Code.NOT_FOUND,
    });
    expect(await call(`${R}/history/items`, { area_id: otherArea, task_id: id }, otherToken)).toMatchObject({
      code: Code.NOT_FOUND,
    });
    const operator = await createSubAccount(t.app, master, [areaId], {
      authority: 'operator',
      rules: ['taskControl'],
    });
    const opToken = await login(t.app, operator);
    expect((await call(`${R}/list`, { area_id: areaId, kind: 'miner' }, opToken)).data.total).toBe(1);
    expect((await call(`${R}/stop`, { area_id: areaId, id }, opToken)).data.status).toBe('stopped');
    expect(await call(`${R}/update`, { ...reboot(), id }, opToken)).toMatchObject({ code: Code.FORBIDDEN });
    expect(await call(`${R}/delete`, { area_id: areaId, id }, opToken)).toMatchObject({
      code: Code.FORBIDDEN,
    });
  });
});
