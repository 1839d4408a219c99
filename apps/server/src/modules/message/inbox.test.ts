import { Code, type InboxMessage, type TelemetryMessage, topics } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CreatedFbox } from '../../devices/device.service.js';
import type { LiveEvent } from '../../realtime/live-events.js';
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

const LIST = '/index/fbox.message/index';
const READ = '/index/fbox.message/read';
const READ_ALL = '/index/fbox.message/readAll';
const UNREAD = '/index/fbox.message/unread';
const s = 1000;

describeDb('the inbox', () => {
  let t: TestApp;
  let master: TestUser;
  let admin: TestUser;
  let outsider: TestUser;
  let stranger: TestUser;
  let tokens: Record<'master' | 'admin' | 'outsider' | 'stranger', string>;
  let areaId: number;
  let otherAreaId: number;
  let box: CreatedFbox;
  let seq = 0;
  let events: LiveEvent[];

  beforeEach(async () => {
    t = await buildTestApp();
    events = [];
    t.app.live.on('live', (event) => events.push(event));
    master = await createMaster(t.app, { username: 'inbox_master' });
    areaId = (await createArea(t.app, master.id, 'North mine')).id;
    otherAreaId = (await createArea(t.app, master.id, 'South mine')).id;
    admin = await createSubAccount(t.app, master, [areaId], { authority: 'administrator' });
    // A sub-account of the same master managing only the other mine.
    outsider = await createSubAccount(t.app, master, [otherAreaId]);
    stranger = await createMaster(t.app, { username: 'inbox_stranger' });
    tokens = {
      master: await login(t.app, master),
      admin: await login(t.app, admin),
      outsider: await login(t.app, outsider),
      stranger: await login(t.app, stranger),
    };
    box = await createFbox(t.app, areaId, { name: 'Box A', tanks: 1 });
  });
  afterEach(() => t.close());

  /** One telemetry message of the box at the container temperature, stored and evaluated. */
  const temperature = async (value: number) => {
    const msg: TelemetryMessage = telemetry({ seq: ++seq, ts: t.clock.ms, miners: 1, tanks: 1 });
    msg.box.temperature = value;
    await t.app.ingest.handle(topics.telemetry(box.device_id), Buffer.from(JSON.stringify(msg)));
    await t.app.alarms.settled();
  };
  /** Container above 45 °C for 60 s: the default rule fires (major). */
  const fire = async () => {
    await temperature(50);
    t.clock.advance(60 * s);
    await temperature(52);
  };
  const list = (who: keyof typeof tokens, query: Record<string, string | number> = {}) =>
    get(t.app, LIST, { ...query } as Record<string, string>, { token: tokens[who] }).then((r) => r.json());
  const unread = (who: keyof typeof tokens, query: Record<string, string> = {}) =>
    get(t.app, UNREAD, query, { token: tokens[who] }).then((r) => r.json().data.count as number);
  const rows = () => t.app.db.selectFrom('messages').selectAll().orderBy('id').execute();

  it('writes a fired and a recovered message to everyone who sees the mine, and announces them', async () => {
    await fire();
    const [alert] = await t.app.db.selectFrom('alerts').selectAll().execute();
    expect(alert).toBeDefined();
    const fired = await rows();
    expect(fired.map((m) => m.user_id).sort()).toEqual([master.id, admin.id].sort());
    expect(fired[0]).toMatchObject({
      kind: 'alert_fired',
      area_id: areaId,
      alert_id: alert!.id,
      level: 2,
      read_at: null,
      title: 'Major alert: Container temperature high',
    });
    expect(JSON.parse(fired[0]!.params)).toMatchObject({
      metric: 'fbox_temp_high',
      target: 'fbox',
      device: 'Box A',
      fbox: 'Box A',
      mine: 'North mine',
      value: 52,
    });
    // Announced to those users, after the alert's own event (its commit).
    const types = events.map((e) => e.type).filter((type) => type === 'alert' || type === 'inbox');
    expect(types).toEqual(['alert', 'inbox']);
    const inbox = events.find((e) => e.type === 'inbox');
    expect(inbox).toMatchObject({ type: 'inbox', userIds: [master.id, admin.id].sort((a, b) => a - b) });

    t.clock.advance(10 * s);
    await temperature(30);
    const all = await rows();
    expect(all).toHaveLength(4);
    expect(all.slice(2).map((m) => m.kind)).toEqual(['alert_recovered', 'alert_recovered']);
    expect(events.filter((e) => e.type === 'inbox')).toHaveLength(2);
  });

  it('lists only the caller’s messages of mines they see, newest first, with filters and paging', async () => {
    await fire();
    t.clock.advance(10 * s);
    await temperature(30);

    const mine = await list('master', { area_id: areaId });
    expect(mine).toMatchObject({ code: Code.OK, data: { total: 2, page: 1, limit: 20 } });
    const [recovered, fired] = mine.data.items as InboxMessage[];
    expect(recovered).toMatchObject({
      kind: 'alert_recovered',
      area_id: areaId,
      area_name: 'North mine',
      alert_open: false,
      read_at: null,
    });
    expect(fired).toMatchObject({ kind: 'alert_fired', alert_open: false });
    expect(recovered!.created_at).toBeGreaterThan(fired!.created_at);

    expect((await list('master', { kind: 'alert_fired' })).data.items).toHaveLength(1);
    expect((await list('master', { limit: 1, page: 2 })).data).toMatchObject({
      total: 2,
      items: [{ id: fired!.id }],
    });
    // The other mine's scope holds none of them; strangers and outsiders have none at all.
    expect((await list('master', { area_id: otherAreaId })).data.total).toBe(0);
    expect((await list('outsider')).data.total).toBe(0);
    expect((await list('stranger')).data.total).toBe(0);
    // A mine the caller does not see is not found.
    expect((await list('admin', { area_id: otherAreaId })).code).toBe(Code.NOT_FOUND);
    expect((await list('stranger', { area_id: areaId })).code).toBe(Code.NOT_FOUND);
    expect((await list('master', { state: 'bogus' })).code).toBe(Code.VALIDATION);
  });

  it('marks read one by one and all at once, counts unread, and never touches another user’s', async () => {
    await fire();
    expect(await unread('master')).toBe(1);
    expect(await unread('master', { area_id: String(areaId) })).toBe(1);
    expect(await unread('master', { area_id: String(otherAreaId) })).toBe(0);
    expect(await unread('admin')).toBe(1);
    const [message] = (await list('master')).data.items as InboxMessage[];

    // Another user's message: not found, and nothing changes.
    for (const who of ['admin', 'outsider', 'stranger'] as const) {
      const answer = (await post(t.app, READ, { id: message!.id }, { token: tokens[who] })).json();
      expect(answer.code, who).toBe(Code.NOT_FOUND);
    }
    expect((await rows()).every((m) => m.read_at === null)).toBe(true);

    t.clock.advance(5 * s);
    const read = (await post(t.app, READ, { id: message!.id }, { token: tokens.master })).json();
    expect(read).toMatchObject({ code: Code.OK, data: { id: message!.id, read_at: t.clock.ms } });
    t.clock.advance(5 * s);
    const again = (await post(t.app, READ, { id: message!.id }, { token: tokens.master })).json();
    expect(again.data.read_at).toBe(t.clock.ms - 5 * s);
    expect(await unread('master')).toBe(0);
    expect(await unread('admin')).toBe(1);
    expect((await list('master', { state: 'unread' })).data.total).toBe(0);
    expect((await list('master', { state: 'read' })).data.total).toBe(1);

    // Mark all read: scoped to a mine the caller sees, else not found; counts what it marked.
    const foreign = (await post(t.app, READ_ALL, { area_id: otherAreaId }, { token: tokens.admin })).json();
    expect(foreign.code).toBe(Code.NOT_FOUND);
    expect(await unread('admin')).toBe(1);
    const all = (await post(t.app, READ_ALL, { area_id: areaId }, { token: tokens.admin })).json();
    expect(all).toMatchObject({ code: Code.OK, data: { updated: 1 } });
    expect(await unread('admin')).toBe(0);
    expect((await post(t.app, READ_ALL, {}, { token: tokens.admin })).json().data.updated).toBe(0);
  });

  it('hides the messages of a mine a sub-account no longer manages', async () => {
    await fire();
    expect(await unread('admin')).toBe(1);
    const [message] = (await list('admin')).data.items as InboxMessage[];
    await t.app.db.deleteFrom('user_areas').where('user_id', '=', admin.id).execute();
    t.clock.advance(3 * s);
    expect(await unread('admin')).toBe(0);
    expect((await list('admin')).data.total).toBe(0);
    expect((await post(t.app, READ, { id: message!.id }, { token: tokens.admin })).json().code).toBe(
      Code.NOT_FOUND,
    );
    expect((await post(t.app, READ_ALL, {}, { token: tokens.admin })).json().data.updated).toBe(0);
  });

  it('records marking read in the operation log, and reading nothing', async () => {
    await fire();
    const [message] = (await list('master')).data.items as InboxMessage[];
    await unread('master');
    await post(t.app, READ, { id: message!.id }, { token: tokens.master });
    await post(t.app, READ_ALL, {}, { token: tokens.master });
    const logged = await t.app.db.selectFrom('operation_log').select('action').orderBy('id').execute();
    expect(logged.map((l) => l.action).filter((a) => a.startsWith('inbox') || a === 'unreadCount')).toEqual([
      'inboxRead',
      'inboxReadAll',
    ]);
  });

  it('tells the sender of a command that failed or timed out, one message per batch', async () => {
    const now = t.clock.ms;
    const miners = await t.app.db
      .insertInto('miners')
      .values(
        ['SN-1', 'SN-2', 'SN-3'].map((sn) => ({
          area_id: areaId,
          fbox_id: box.id,
          tank_id: null,
          sn,
          created_at: now,
        })),
      )
      .returning('id')
      .execute();
    const restart = (
      await post(
        t.app,
        '/index/fbox.miner/restart',
        { area_id: areaId, ids: miners.map((m) => m.id) },
        { token: tokens.admin },
      )
    ).json();
    expect(restart.code).toBe(Code.OK);
    const [first, second] = restart.data.commands as { command_id: string }[];
    const ack = (id: string, ok: boolean, error?: string) =>
      t.app.commands.handleAck(box.device_id, Buffer.from(JSON.stringify({ id, ok, error })));

    expect(await ack(first!.command_id, true)).toBe('acknowledged');
    expect(await rows()).toEqual([]);
    events = [];
    expect(await ack(second!.command_id, false, 'pool unreachable')).toBe('failed');
    const [failed, ...none] = await rows();
    expect(none).toEqual([]);
    expect(failed).toMatchObject({
      user_id: admin.id,
      area_id: areaId,
      kind: 'command_failed',
      title: 'Command failed: Restart',
      content: 'SN-2, FBOX Box A, mine North mine; pool unreachable',
    });
    expect(events.filter((e) => e.type === 'inbox')).toEqual([
      { type: 'inbox', areaId, userIds: [admin.id] },
    ]);

    // The third times out: the same unread message now counts two.
    t.clock.advance(10 * 60 * s);
    expect(await t.app.commands.expire()).toBe(1);
    const [grouped, ...more] = await rows();
    expect(more).toEqual([]);
    expect(grouped).toMatchObject({ id: failed!.id, title: '2 commands failed: Restart' });
    expect(JSON.parse(grouped!.params)).toMatchObject({ count: 2, status: 'timed_out' });
    const [shown] = (await list('admin')).data.items as InboxMessage[];
    expect(shown).toMatchObject({ kind: 'command_failed', params: { count: 2, command: 'miner.restart' } });
    // The master did not send it: nothing for them.
    expect((await list('master')).data.total).toBe(0);
  });
});
