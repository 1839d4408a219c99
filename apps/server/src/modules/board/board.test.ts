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

describeDb('boards (fbox.board)', () => {
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
        { area_id: areaId, type: 'dataBoard', title: 'Control room', ...body },
        { token: tk },
      )
    ).json();
  const list = async (tk = token, area = areaId) =>
    (await get(t.app, '/index/fbox.board/index', { area_id: String(area) }, { token: tk })).json();
  const data = async (id: number, tk = token) =>
    (
      await get(t.app, '/index/fbox.board/data', { area_id: String(areaId), id: String(id) }, { token: tk })
    ).json();
  const boards = () => t.app.db.selectFrom('boards').selectAll().execute();
  const report = async (box: CreatedFbox, seq: number, miners: number, hashrate: number) => {
    const msg = telemetry({ seq, ts: t.clock.ms, miners, hashrate, snPrefix: box.device_id });
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await t.app.ingest.flush();
  };

  it('creates, lists, edits and deletes a board; the whole mine when it names no FBOX', async () => {
    const created = await save({ title: '  Wall 1  ', fbox_ids: [boxA.id, boxB.id] });
    expect(created.code, created.msg).toBe(Code.OK);
    expect(created.data).toMatchObject({
      area_id: areaId,
      type: 'dataBoard',
      title: 'Wall 1',
      fbox_ids: [boxA.id, boxB.id].sort((a, b) => a - b),
      theme: 'dark',
      metric: 'status',
      page_seconds: 20,
    });
    const whole = await save({ title: 'Everything', fbox_ids: '', theme: 'light' });
    expect(whole.data).toMatchObject({ fbox_ids: [], theme: 'light' });
    expect((await list()).data).toMatchObject({
      items: [{ id: created.data.id }, { id: whole.data.id }],
      total: 2,
    });
    // Editing rewrites the title, theme and FBOXes; the type stays.
    t.clock.advance(1000);
    const edited = await save({
      id: created.data.id,
      title: 'Wall 2',
      fbox_ids: `[${boxB.id}]`,
      metric: 'chip_temp',
      page_seconds: '45',
    });
    expect(edited.data).toMatchObject({
      id: created.data.id,
      title: 'Wall 2',
      fbox_ids: [boxB.id],
      metric: 'chip_temp',
      page_seconds: 45,
    });
    expect(edited.data.updated_at).toBe(created.data.updated_at + 1000);
    // Another mine's board list does not hold them.
    expect((await list(token, otherAreaId)).data.items).toEqual([]);
    const removed = await post(
      t.app,
      '/index/fbox.board/deleted',
      { area_id: areaId, id: created.data.id },
      { token },
    );
    expect(removed.json().code).toBe(Code.OK);
    expect((await boards()).map((b) => b.id)).toEqual([whole.data.id]);
    expect(await t.app.db.selectFrom('board_fboxes').selectAll().execute()).toEqual([]);
  });

  it('refuses an empty title, a type that is not a board type and a foreign FBOX, saving nothing', async () => {
    const empty = await save({ title: '   ' });
    expect(empty.code).toBe(Code.VALIDATION);
    expect(empty.data.errors[0].field).toBe('title');
    const unbuilt = await save({ type: 'camera' });
    expect(unbuilt.code).toBe(Code.VALIDATION);
    expect(unbuilt.data.errors[0]).toMatchObject({ field: 'type', message: 'choose a board type' });
    for (const page_seconds of [4, 301, 12.5]) {
      const refused = await save({ page_seconds });
      expect(refused.code).toBe(Code.VALIDATION);
      expect(refused.data.errors[0]).toMatchObject({
        field: 'page_seconds',
        message: 'must be a number from 5 to 300',
      });
    }
    expect((await save({ metric: 'colour' })).data.errors[0].field).toBe('metric');
    const foreignBox = await createFbox(t.app, otherAreaId, { name: 'Elsewhere' });
    expect((await save({ fbox_ids: [boxA.id, foreignBox.id] })).code).toBe(Code.NOT_FOUND);
    expect(await boards()).toEqual([]);
    // Editing a board of another mine through this one: not found, unchanged.
    const other = (await save({ title: 'Other' })).data;
    await t.app.db.updateTable('boards').set({ area_id: otherAreaId }).where('id', '=', other.id).execute();
    expect((await save({ id: other.id, title: 'Taken over' })).code).toBe(Code.NOT_FOUND);
    expect((await boards())[0]).toMatchObject({ title: 'Other', area_id: otherAreaId });
  });

  it('lets an operator read the boards and their figures, not change them', async () => {
    const board = (await save({})).data;
    const operator = await createSubAccount(t.app, master, [areaId]);
    const opToken = await login(t.app, operator);
    expect((await list(opToken)).data.items).toHaveLength(1);
    expect((await data(board.id, opToken)).code).toBe(Code.OK);
    expect((await save({ title: 'Mine now' }, opToken)).code).toBe(Code.FORBIDDEN);
    const removed = await post(
      t.app,
      '/index/fbox.board/deleted',
      { area_id: areaId, id: board.id },
      { token: opToken },
    );
    expect(removed.json().code).toBe(Code.FORBIDDEN);
    expect(await boards()).toHaveLength(1);
  });

  it('shows its FBOXes’ devices, hashrate, power and open alerts; an FBOX moved away leaves it', async () => {
    const board = (await save({ fbox_ids: [boxA.id] })).data;
    const whole = (await save({ title: 'All' })).data;
    const empty = await data(board.id);
    expect(empty.data).toMatchObject({
      fboxes: [{ id: boxA.id, name: 'Box A', online: false }],
      fbox: { online: 0, offline: 1 },
      miner: { online: 0, offline: 0 },
      online_rate: null,
      hashrate: 0,
      alerts: { 1: 0, 2: 0, 3: 0 },
    });
    expect(empty.data.series.points).toHaveLength(24);
    await report(boxA, 1, 3, 100);
    await report(boxB, 1, 2, 50);
    for (const [box, level] of [
      [boxA, 3],
      [boxB, 1],
    ] as const)
      await t.app.db
        .insertInto('alerts')
        .values({
          area_id: areaId,
          rule_id: 0,
          metric: 'fbox_temp_high',
          level,
          device_kind: 'fbox',
          device_id: box.id,
          fbox_id: box.id,
          device_name: box === boxA ? 'Box A' : 'Box B',
          value: 50,
          peak_value: 50,
          detail: '',
          started_at: t.clock.ms,
          ended_at: null,
        })
        .execute();
    const live = (await data(board.id)).data;
    expect(live).toMatchObject({
      fbox: { online: 1, offline: 0 },
      miner: { online: 3, offline: 0 },
      online_rate: 1,
      hashrate: 300,
      theoretical: 330,
      power_kw: 120,
      alerts: { 1: 0, 2: 0, 3: 1 },
      at: t.clock.ms,
    });
    const all = (await data(whole.id)).data;
    expect(all.fboxes.map((f: { name: string }) => f.name)).toEqual(['Box A', 'Box B']);
    expect(all).toMatchObject({ miner: { online: 5 }, hashrate: 400, alerts: { 1: 1, 3: 1 } });
    // Box A goes to another mine: the board no longer covers it, and shows nothing of it.
    await t.app.db.updateTable('fboxes').set({ area_id: otherAreaId }).where('id', '=', boxA.id).execute();
    await t.app.db
      .updateTable('miner_info')
      .set({ area_id: otherAreaId })
      .where('fbox_id', '=', boxA.id)
      .execute();
    const after = (await data(board.id)).data;
    expect(after.board.fbox_ids).toEqual([]);
    expect(after.fboxes.map((f: { name: string }) => f.name)).toEqual(['Box B']);
  });

  it('places every miner of a miner board’s FBOXes by FBOX, tank and slot, with its readings', async () => {
    const now = t.clock.ms;
    const inserted = await t.app.db
      .insertInto('boards')
      .values({
        area_id: areaId,
        type: 'minerBoard',
        title: 'Site map',
        theme: 'dark',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.app.db.insertInto('board_fboxes').values({ board_id: inserted.id, fbox_id: boxA.id }).execute();
    const miners = async (id: number) =>
      (
        await get(t.app, '/index/fbox.board/miners', { area_id: String(areaId), id: String(id) }, { token })
      ).json();
    await report(boxA, 1, 3, 100);
    await report(boxB, 1, 2, 50);
    const answer = await miners(inserted.id);
    expect(answer.code, answer.msg).toBe(Code.OK);
    expect(answer.data.fboxes).toMatchObject([
      {
        id: boxA.id,
        name: 'Box A',
        online: true,
        tanks: [
          { no: 1, name: 'Tank 1' },
          { no: 2, name: 'Tank 2' },
        ],
      },
    ]);
    expect(answer.data.miners).toHaveLength(3);
    expect(answer.data.miners.map((m: { slot: number }) => m.slot)).toEqual([1, 2, 3]);
    expect(answer.data.miners[0]).toMatchObject({
      fbox_id: boxA.id,
      tank_no: null,
      sn: `${boxA.device_id}-0`,
      online: true,
      fault: '',
      chip_max_temp: 70,
      hashrate: 100,
      theoretical: 110,
      power_w: 3250,
    });
    // Each board answers only for its own kind of page.
    expect((await data(inserted.id)).code).toBe(Code.NOT_FOUND);
    const dataBoard = (await save({})).data;
    expect((await miners(dataBoard.id)).code).toBe(Code.NOT_FOUND);
  });

  it('opens one board, read-only, to a kiosk link without login; revoked or replaced, at once refused', async () => {
    const board = (await save({ fbox_ids: [boxA.id] })).data;
    const other = (await save({ type: 'minerBoard', title: 'Map' })).data;
    const kioskGet = (path: string, token: string) =>
      get(t.app, `/index/fbox.board/${path}`, { token: String(token) }).then((r) => r.json());
    const created = (
      await post(t.app, '/index/fbox.board/kiosk_create', { area_id: areaId, id: board.id }, { token })
    ).json();
    expect(created.code, created.msg).toBe(Code.OK);
    const kiosk: string = created.data.token;
    expect(kiosk).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(created.data.board.kiosk_created_at).toBe(t.clock.ms);
    // Only its hash is kept.
    const stored = await t.app.db
      .selectFrom('boards')
      .select('kiosk_token_hash')
      .where('id', '=', board.id)
      .executeTakeFirstOrThrow();
    expect(stored.kiosk_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify((await list()).data)).not.toContain(kiosk);

    const shown = await kioskGet('kiosk_data', kiosk);
    expect(shown.code, shown.msg).toBe(Code.OK);
    expect(shown.data.board.id).toBe(board.id);
    expect(shown.data.fboxes.map((f: { id: number }) => f.id)).toEqual([boxA.id]);
    // That board only: not another kind of page, not another board, no session anywhere else.
    expect((await kioskGet('kiosk_miners', kiosk)).code).toBe(Code.NOT_FOUND);
    expect((await data(other.id, kiosk)).code).toBe(Code.NOT_LOGGED_IN);
    expect((await list(kiosk)).code).toBe(Code.NOT_LOGGED_IN);
    expect((await kioskGet('kiosk_data', 'x'.repeat(43))).code).toBe(Code.NOT_FOUND);
    expect((await kioskGet('kiosk_data', 'short')).code).toBe(Code.VALIDATION);

    // A new link replaces the old one; revoking ends it; operators may do neither.
    const again = (
      await post(t.app, '/index/fbox.board/kiosk_create', { area_id: areaId, id: board.id }, { token })
    ).json();
    expect((await kioskGet('kiosk_data', kiosk)).code).toBe(Code.NOT_FOUND);
    expect((await kioskGet('kiosk_data', again.data.token)).code).toBe(Code.OK);
    const operator = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    const refused = await post(
      t.app,
      '/index/fbox.board/kiosk_revoke',
      { area_id: areaId, id: board.id },
      { token: operator },
    );
    expect(refused.json().code).toBe(Code.FORBIDDEN);
    const revoked = (
      await post(t.app, '/index/fbox.board/kiosk_revoke', { area_id: areaId, id: board.id }, { token })
    ).json();
    expect(revoked.data.kiosk_created_at).toBeNull();
    expect((await kioskGet('kiosk_data', again.data.token)).code).toBe(Code.NOT_FOUND);

    // A miner board's link opens its site map.
    const map = (
      await post(t.app, '/index/fbox.board/kiosk_create', { area_id: areaId, id: other.id }, { token })
    ).json();
    const mapShown = await kioskGet('kiosk_miners', map.data.token);
    expect(mapShown.code).toBe(Code.OK);
    expect(mapShown.data.board.id).toBe(other.id);
  });
});
