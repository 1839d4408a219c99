import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank } from '../../test/device-factories.js';
import { createArea, createMaster, login, post, type TestUser } from '../../test/factories.js';

const G = '/ff-plat-api/api/minerGroup';
const hour = 3_600_000;

describeDb('miner groups (minerGroup/*)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let boxA: number;
  let tankA: number;
  let ids: number[];
  let foreignArea: number;
  let foreignMiner: number;

  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    const a = await createFbox(t.app, areaId, { name: 'Box A' });
    const b = await createFbox(t.app, areaId, { name: 'Box B' });
    boxA = a.id;
    tankA = await createTank(t.app, a, 1, { name: 'Tank A1' });
    ids = [
      ...(await createMiners(t.app, a, [
        { sn: 'A-1', worker: 'acct.a1', ip: '10.0.0.1', model: 'S19', online: 1, tank_id: tankA },
        { sn: 'A-2', worker: 'acct.a2', ip: '10.0.0.2', model: 'S19', online: 0, tank_id: tankA },
        { sn: 'A-3', worker: 'acct.a3', ip: '10.0.0.3', model: 'M30', online: 1 },
      ])),
      ...(await createMiners(t.app, b, [
        { sn: 'B-1', worker: 'acct.b1', ip: '10.0.1.1', model: 'S19', online: 1 },
        { sn: 'B-2', worker: 'other.b2', ip: '10.0.1.2', model: 'M30', online: 0 },
      ])),
    ];
    const other = await createMaster(t.app);
    foreignArea = (await createArea(t.app, other.id)).id;
    const fb = await createFbox(t.app, foreignArea);
    foreignMiner = (await createMiners(t.app, fb, [{ sn: 'X-1' }]))[0]!;
  });
  afterEach(() => t.close());

  const call = async (path: string, body: Record<string, unknown>, as = token) =>
    (await post(t.app, `${G}/${path}`, { area_id: areaId, ...body }, { token: as })).json();
  const addGroup = async (name: string, type = 'miner_reboot') => (await call('add', { name, type })).data;

  it('adds, lists by type, edits and deletes groups with their counts', async () => {
    const g1 = await addGroup('Row 1');
    expect(g1).toMatchObject({ name: 'Row 1', type: 'miner_reboot', miner_count: 0, task_count: 0 });
    await call('addMiner', { group_id: g1.id, miner_ids: [ids[0], ids[1]] });
    expect((await call('detail', { id: g1.id })).data).toEqual({ ...g1, miner_count: 2 });
    await addGroup('Row 1', 'pdu_reboot');
    await addGroup('Hot', 'temp_mode');
    // The same name in another type is another group; in the same type it is refused.
    expect(await call('add', { name: 'Row 1', type: 'miner_reboot' })).toMatchObject({
      code: Code.CONFLICT,
      msg: 'A group with this name already exists',
    });
    const list = await call('list', { type: 'miner_reboot' });
    expect(list.data).toMatchObject({ total: 1, items: [{ id: g1.id, name: 'Row 1' }] });
    expect(
      (await call('list', { type: 'temp_mode' })).data.items.map((g: { name: string }) => g.name),
    ).toEqual(['Hot']);
    expect((await call('list', { type: 'pdu_reboot', keyword: 'nothing' })).data.total).toBe(0);

    await call('addMiner', { group_id: g1.id, miner_ids: [ids[0], ids[1]] });
    const edited = await call('edit', { id: g1.id, name: 'Row one' });
    expect(edited).toMatchObject({ code: 1, data: { id: g1.id, name: 'Row one', miner_count: 2 } });
    expect(await call('edit', { id: g1.id, name: '' })).toMatchObject({ code: Code.VALIDATION });
    expect(await call('edit', { id: g1.id, name: 'x'.repeat(51) })).toMatchObject({ code: Code.VALIDATION });

    expect(await call('delete', { id: g1.id })).toMatchObject({ code: 1 });
    expect((await call('list', { type: 'miner_reboot' })).data.total).toBe(0);
    expect(await t.app.db.selectFrom('miner_group_members').selectAll().execute()).toHaveLength(0);
  });

  it('lists the miners to pick by FBOX, tank, model, status, search and membership', async () => {
    const g = await addGroup('Pick');
    await call('addMiner', { group_id: g.id, miner_ids: [ids[0], ids[3]] });
    const sns = async (filter: Record<string, unknown>) =>
      (await call('minerList', { group_id: g.id, ...filter })).data.items.map((m: { sn: string }) => m.sn);
    expect(await sns({})).toEqual(['A-1', 'A-2', 'A-3', 'B-1', 'B-2']);
    expect(await sns({ fbox_id: boxA })).toEqual(['A-1', 'A-2', 'A-3']);
    expect(await sns({ tank_id: tankA })).toEqual(['A-1', 'A-2']);
    expect(await sns({ model: 'M30' })).toEqual(['A-3', 'B-2']);
    expect(await sns({ status: 'offline' })).toEqual(['A-2', 'B-2']);
    expect(await sns({ keyword: 'other' })).toEqual(['B-2']);
    expect(await sns({ keyword: '10.0.1.' })).toEqual(['B-1', 'B-2']);
    expect(await sns({ member: 'in' })).toEqual(['A-1', 'B-1']);
    expect(await sns({ member: 'out', model: 'S19' })).toEqual(['A-2']);
    const page = (await call('minerList', { group_id: g.id, page: 2, limit: 2 })).data;
    expect(page).toMatchObject({ total: 5, page: 2, limit: 2 });
    expect(page.items.map((m: { sn: string }) => m.sn)).toEqual(['A-3', 'B-1']);
    const first = (await call('minerList', { group_id: g.id, limit: 1 })).data.items[0];
    expect(first).toMatchObject({
      sn: 'A-1',
      worker: 'acct.a1',
      fbox_name: 'Box A',
      tank_name: 'Tank A1',
      status: 'online',
      in_group: true,
    });
  });

  it('adds and removes in bulk, by ids or by every miner matching a filter', async () => {
    const g = await addGroup('Bulk');
    const add = await call('addMiner', { group_id: g.id, miner_ids: [ids[0], ids[0], ids[1]] });
    expect(add.data).toEqual({ changed: 2, miner_count: 2 });
    // Already members are not counted again.
    expect((await call('addMiner', { group_id: g.id, miner_ids: [ids[1], ids[2]] })).data).toEqual({
      changed: 1,
      miner_count: 3,
    });
    expect(
      (await call('addMiner', { group_id: g.id, all_matching: true, filter: { model: 'S19' } })).data,
    ).toEqual({ changed: 1, miner_count: 4 });
    expect(
      (
        await call('removeMinerNew', {
          group_id: g.id,
          all_matching: true,
          filter: { fbox_id: boxA, status: 'online' },
        })
      ).data,
    ).toEqual({ changed: 2, miner_count: 2 });
    expect((await call('removeMinerNew', { group_id: g.id, miner_ids: [ids[1]] })).data).toEqual({
      changed: 1,
      miner_count: 1,
    });
    expect((await call('addMiner', { group_id: g.id, all_matching: true })).data).toEqual({
      changed: 4,
      miner_count: 5,
    });
    expect((await call('list', { type: 'miner_reboot' })).data.items[0].miner_count).toBe(5);
    // Nothing chosen: a validation error naming the field.
    expect(await call('addMiner', { group_id: g.id, miner_ids: [] })).toMatchObject({
      code: Code.VALIDATION,
      msg: 'Miners: choose at least one miner',
    });
    // A miner of another mine answers "not found", alone or among the mine's own, and nothing changes.
    expect((await call('addMiner', { group_id: g.id, miner_ids: [foreignMiner] })).code).toBe(Code.NOT_FOUND);
    expect((await call('addMiner', { group_id: g.id, miner_ids: [ids[0]!, foreignMiner] })).code).toBe(
      Code.NOT_FOUND,
    );
    expect((await call('removeMinerNew', { group_id: g.id, miner_ids: [ids[0]!, foreignMiner] })).code).toBe(
      Code.NOT_FOUND,
    );
    expect((await call('list', { type: 'miner_reboot' })).data.items[0].miner_count).toBe(5);
    // Deleting a miner removes it from its groups.
    await t.app.db.deleteFrom('miners').where('id', '=', ids[4]!).execute();
    expect((await call('list', { type: 'miner_reboot' })).data.items[0].miner_count).toBe(4);
  });

  it('refuses to delete a group a live task uses, and allows it once the task is deleted', async () => {
    const g = await addGroup('Used');
    const now = t.clock.ms;
    const task = (
      await post(
        t.app,
        '/ff-plat-api/api/taskReboot/add',
        {
          area_id: areaId,
          kind: 'miner',
          name: 'Watchdog',
          hashrate_threshold: 50,
          duration_seconds: 600,
          reboot_interval_seconds: 1800,
          reboot_limit: 3,
          start_at: now + hour,
          end_at: now + 2 * hour,
          simultaneous_count: 5,
          batch_interval_seconds: 60,
          group_ids: [g.id],
        },
        { token },
      )
    ).json().data;
    expect((await call('list', { type: 'miner_reboot' })).data.items[0].task_count).toBe(1);
    expect(await call('delete', { id: g.id })).toMatchObject({
      code: Code.CONFLICT,
      msg: 'The group is used by task "Watchdog"; delete or change that task first',
    });
    await post(t.app, '/ff-plat-api/api/taskReboot/delete', { area_id: areaId, id: task.id }, { token });
    expect((await call('list', { type: 'miner_reboot' })).data.items[0].task_count).toBe(0);
    expect(await call('delete', { id: g.id })).toMatchObject({ code: 1 });
  });

  it('answers "not found" for groups of another mine and for a mine not the caller’s', async () => {
    const g = await addGroup('Mine');
    const other = await createMaster(t.app);
    const otherToken = await login(t.app, other);
    const otherArea = (await createArea(t.app, other.id)).id;
    const theirs = (
      await post(
        t.app,
        `${G}/add`,
        { area_id: otherArea, name: 'Theirs', type: 'miner_reboot' },
        { token: otherToken },
      )
    ).json().data;
    for (const [path, body] of [
      ['detail', { id: theirs.id }],
      ['edit', { id: theirs.id, name: 'x' }],
      ['delete', { id: theirs.id }],
      ['minerList', { group_id: theirs.id }],
      ['addMiner', { group_id: theirs.id, miner_ids: [ids[0]] }],
      ['removeMinerNew', { group_id: theirs.id, miner_ids: [ids[0]] }],
    ] as const) {
      expect(await call(path, body)).toMatchObject({ code: Code.NOT_FOUND });
    }
    expect(await call('list', { area_id: foreignArea, type: 'miner_reboot' })).toMatchObject({
      code: Code.NOT_FOUND,
    });
    expect(await call('add', { area_id: foreignArea, name: 'x', type: 'miner_reboot' })).toMatchObject({
      code: Code.NOT_FOUND,
    });
    // Their group is untouched; ours is unchanged by their calls either.
    expect(
      (
        await post(t.app, `${G}/edit`, { area_id: otherArea, id: g.id, name: 'y' }, { token: otherToken })
      ).json(),
    ).toMatchObject({ code: Code.NOT_FOUND });
    expect((await call('list', { type: 'miner_reboot' })).data.items[0].name).toBe('Mine');
  });
});
