import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDb, type TestApp } from '../../test/build-test-app.js';
import { createMiners, createTank, type TestFbox } from '../../test/device-factories.js';
import { createArea, createMaster, login, post, type TestUser } from '../../test/factories.js';
import { ackAll, addGroup, api, engineWorld, items, runUntil } from '../../test/task-engine-harness.js';

const s = 1000;
const hour = 3600 * s;

/**
 * Stopping or deleting a temperature task may switch the miners it left in low mode back to high
 * (issue 12 point 6): only those, through the command path, recorded and followed up as task items.
 */
describeDb('temperature task: stop or delete switching miners back to high', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let box: TestFbox;

  beforeEach(async () => {
    ({ t, master, token, areaId, box } = await engineWorld());
  });
  afterEach(() => t.close());

  const setMode = (ids: number[], mode: 'high' | 'low') =>
    t.app.db.updateTable('miner_info').set({ mode }).where('miner_id', 'in', ids).execute();

  /**
   * A running task over hot oil that switched A, B and C to low (acknowledged, reported); C was then
   * put back to high by hand; D was low already, so the task never switched it.
   */
  const switchedTask = async () => {
    const tank = await createTank(t.app, box, 1, { state: { oil_out_temp: 65, online: 1 } });
    const [a, b, c, d] = await createMiners(t.app, box, [
      { sn: 'A', online: 1, tank_id: tank, mode: 'high' },
      { sn: 'B', online: 1, tank_id: tank, mode: 'high' },
      { sn: 'C', online: 1, tank_id: tank, mode: 'high' },
      { sn: 'D', online: 1, tank_id: tank, mode: 'low' },
    ]);
    const groupId = await addGroup(t.app, token, areaId, { name: 'Tank 1', type: 'temp_mode' }, [
      a!,
      b!,
      c!,
      d!,
    ]);
    const start = t.clock.ms;
    const task = await api(t.app, token, 'taskTemp/add', {
      area_id: areaId,
      name: 'Oil guard',
      group_ids: [groupId],
      source: 'tank_oil_outlet',
      threshold: 60,
      duration_seconds: 60,
      start_at: start,
      end_at: start + 24 * hour,
    });
    await runUntil([t.app], t.clock, start + 75 * s);
    expect((await items(t.app)).map((i) => [i.sn, i.action, i.status])).toEqual([
      ['A', 'mode_low', 'acknowledged'],
      ['B', 'mode_low', 'acknowledged'],
      ['C', 'mode_low', 'acknowledged'],
    ]);
    await setMode([a!, b!, c!], 'low');
    await setMode([c!], 'high');
    return { id: task.id as number, a: a!, b: b!, c: c!, d: d! };
  };

  const listed = async (status?: string) =>
    (await api(t.app, token, 'taskTemp/list', { area_id: areaId, ...(status && { status }) })).items[0];
  const commands = () =>
    t.app.db.selectFrom('commands').selectAll().orderBy('created_at').orderBy('miner_id').execute();
  const oplog = (action: string) =>
    t.app.db.selectFrom('operation_log').selectAll().where('action', '=', action).execute();

  /** The mode_high items and commands of the switch back, after the three mode_low ones. */
  const switchedBack = async (taskId: number) => {
    const all = await items(t.app, taskId);
    const restored = all.slice(3);
    const byId = new Map((await commands()).map((c) => [c.id, c]));
    return restored.map((i) => {
      const command = byId.get(i.command_id)!;
      return {
        miner: i.miner_id,
        action: i.action,
        status: i.status,
        kind: command.kind,
        params: JSON.parse(command.params),
        target: JSON.parse(command.target),
        created_by: command.created_by,
        run: i.run_id,
      };
    });
  };

  it('stop with restore switches back exactly the miners it left low, acknowledged in its history', async () => {
    const task = await switchedTask();
    expect(await listed()).toMatchObject({ id: task.id, status: 'running', switched_low_count: 2 });

    const stopped = await api(t.app, token, 'taskTemp/stop', { area_id: areaId, id: task.id, restore: true });
    expect(stopped).toMatchObject({ status: 'stopped' });
    const pending = await switchedBack(task.id);
    expect(pending.map(({ run: _, ...rest }) => rest)).toEqual(
      [
        [task.a, 'A'],
        [task.b, 'B'],
      ].map(([miner, sn]) => ({
        miner,
        action: 'mode_high',
        status: 'pending',
        kind: 'miner.mode',
        params: { mode: 'high' },
        target: { sn },
        created_by: master.id,
      })),
    );
    expect(new Set(pending.map((i) => i.run)).size).toBe(1);

    // The gateway acknowledges: the items settle and the run finishes, shown in the history.
    expect(await ackAll(t.app)).toBe(2);
    expect((await switchedBack(task.id)).map((i) => i.status)).toEqual(['acknowledged', 'acknowledged']);
    const history = await api(t.app, token, 'taskTemp/history/list', { area_id: areaId, task_id: task.id });
    expect(history.items[0]).toMatchObject({
      id: pending[0]!.run,
      task_status: 'stopped',
      miner_count: 2,
      acknowledged_count: 2,
      pending_count: 0,
    });
    expect(history.items[0].finished_at).not.toBeNull();

    // The stopped task does nothing more, and nothing is left to switch back.
    await setMode([task.a, task.b], 'high');
    await runUntil([t.app], t.clock, t.clock.ms + hour);
    expect(await items(t.app, task.id)).toHaveLength(5);
    expect(await listed('stopped')).toMatchObject({ switched_low_count: 0 });

    const [logged] = await oplog('tempTaskStop');
    expect(JSON.parse(logged!.params)).toEqual({ area_id: areaId, id: task.id, restore: true });
  });

  it('the engine follows up a switch back settled elsewhere, though the task is stopped', async () => {
    const task = await switchedTask();
    await api(t.app, token, 'taskTemp/stop', { area_id: areaId, id: task.id, restore: true });
    // Another process took the acks (its listener, not this one, saw them settle).
    const ids = (await switchedBack(task.id)).map((i) => i.miner);
    await t.app.db
      .updateTable('commands')
      .set({ status: 'acknowledged', acked_at: t.clock.ms })
      .where('miner_id', 'in', ids)
      .where('status', '=', 'pending')
      .execute();
    await runUntil([t.app], t.clock, t.clock.ms + 30 * s, { ack: false });
    expect((await switchedBack(task.id)).map((i) => i.status)).toEqual(['acknowledged', 'acknowledged']);
  });

  it('stop without restore (or restore false) switches nothing back and says so in the list', async () => {
    const task = await switchedTask();
    const before = (await commands()).length;
    await api(t.app, token, 'taskTemp/stop', { area_id: areaId, id: task.id });
    expect(await commands()).toHaveLength(before);
    expect(await items(t.app, task.id)).toHaveLength(3);
    expect(await listed('stopped')).toMatchObject({ switched_low_count: 2 });

    // Started and stopped again, explicitly without restore.
    await api(t.app, token, 'taskTemp/start', { area_id: areaId, id: task.id });
    await api(t.app, token, 'taskTemp/stop', { area_id: areaId, id: task.id, restore: false });
    expect(await commands()).toHaveLength(before);
    expect((await oplog('tempTaskStop')).map((r) => JSON.parse(r.params).restore)).toEqual([false, false]);
  });

  it('delete with restore switches back the same miners; the items stay in the history', async () => {
    const task = await switchedTask();
    expect(
      await api(t.app, token, 'taskTemp/delete', { area_id: areaId, id: task.id, restore: true }),
    ).toBeNull();
    expect((await switchedBack(task.id)).map((i) => [i.miner, i.action, i.params])).toEqual([
      [task.a, 'mode_high', { mode: 'high' }],
      [task.b, 'mode_high', { mode: 'high' }],
    ]);
    await ackAll(t.app);
    const shown = await api(t.app, token, 'taskTemp/history/items', { area_id: areaId, task_id: task.id });
    expect(shown.items.slice(0, 2).map((i: { sn: string; status: string }) => [i.sn, i.status])).toEqual([
      ['B', 'acknowledged'],
      ['A', 'acknowledged'],
    ]);
    expect(await listed('deleted')).toMatchObject({ status: 'deleted', switched_low_count: 0 });
    const [logged] = await oplog('tempTaskDelete');
    expect(JSON.parse(logged!.params)).toEqual({ area_id: areaId, id: task.id, restore: true });
  });

  it('delete without restore switches nothing back', async () => {
    const task = await switchedTask();
    const before = (await commands()).length;
    expect(await api(t.app, token, 'taskTemp/delete', { area_id: areaId, id: task.id })).toBeNull();
    expect(await commands()).toHaveLength(before);
    expect(await listed('deleted')).toMatchObject({ status: 'deleted', switched_low_count: 2 });
  });

  it('refuses a restore of another master, an unknown flag, and a stop that is not allowed, switching nothing', async () => {
    const task = await switchedTask();
    const before = (await commands()).length;
    const other = await createMaster(t.app);
    const otherToken = await login(t.app, other);
    const otherArea = (await createArea(t.app, other.id)).id;
    for (const area_id of [areaId, otherArea])
      for (const path of ['stop', 'delete']) {
        const res = await post(
          t.app,
          `/ff-plat-api/api/taskTemp/${path}`,
          { area_id, id: task.id, restore: true },
          { token: otherToken },
        );
        expect(res.json()).toMatchObject({ code: Code.NOT_FOUND });
      }
    const invalid = await post(
      t.app,
      '/ff-plat-api/api/taskTemp/stop',
      { area_id: areaId, id: task.id, restore: 'yes' },
      { token },
    );
    expect(invalid.json()).toMatchObject({ code: Code.VALIDATION });
    expect(await listed()).toMatchObject({ status: 'running', switched_low_count: 2 });

    await api(t.app, token, 'taskTemp/stop', { area_id: areaId, id: task.id });
    const again = await post(
      t.app,
      '/ff-plat-api/api/taskTemp/stop',
      { area_id: areaId, id: task.id, restore: true },
      { token },
    );
    expect(again.json()).toMatchObject({ code: Code.CONFLICT });
    expect(await commands()).toHaveLength(before);
  });
});
