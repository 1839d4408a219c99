import { Code, type Endpoint, type EndpointName, endpoints, type OperatorRule } from '@fbox/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import { createArea, createMaster, createSubAccount, get, login, post } from '../../test/factories.js';

/**
 * Authority on every endpoint of the contract table (spec §6, DESIGN §6): driven by the table, so an
 * endpoint added later is covered without touching this file. The permission check comes before
 * validation, so an empty request is enough to tell "refused" from "let through".
 */
const table = Object.entries(endpoints) as [EndpointName, Endpoint][];
// `logout` would end the sessions the sweep shares; it is open to every signed-in user anyway.
const signedIn = table.filter(([name, e]) => e.permission !== 'public' && name !== 'logout');

describeDb('authority per endpoint', () => {
  let t: TestApp;
  let tokens: { master: string; administrator: string; operator: string; bare: string };

  beforeAll(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    const area = await createArea(t.app, master.id);
    const sub = (authority: 'administrator' | 'operator', rules?: OperatorRule[]) =>
      createSubAccount(t.app, master, [area.id], { authority, rules }).then((u) => login(t.app, u));
    tokens = {
      master: await login(t.app, master),
      administrator: await sub('administrator'),
      operator: await sub('operator'),
      bare: await sub('operator', []),
    };
  });
  afterAll(() => t.close());

  const callAs = async (token: string, e: Endpoint) => {
    const res =
      e.method === 'GET' ? await get(t.app, e.path, {}, { token }) : await post(t.app, e.path, {}, { token });
    // A download that needs no input answers its file (a refusal is always the JSON envelope).
    return String(res.headers['content-type']).includes('json') ? (res.json().code as number) : Code.OK;
  };

  const refused = (code: number) => code === Code.FORBIDDEN;

  describe.each(signedIn)('%s', (_name, e) => {
    it('lets through exactly the roles its permission names', async () => {
      const outcome = {
        master: refused(await callAs(tokens.master, e)),
        administrator: refused(await callAs(tokens.administrator, e)),
        operator: refused(await callAs(tokens.operator, e)),
        bare: refused(await callAs(tokens.bare, e)),
      };
      const expected =
        e.permission === 'master'
          ? { master: false, administrator: true, operator: true, bare: true }
          : e.permission === 'manage'
            ? { master: false, administrator: false, operator: true, bare: true }
            : e.permission.startsWith('operate:')
              ? { master: false, administrator: false, operator: false, bare: true }
              : { master: false, administrator: false, operator: false, bare: false };
      expect(outcome).toEqual(expected);
    });
  });

  it("marks every state-changing POST as manage, operate or master unless it is about one's own account", () => {
    // Acknowledging an alert is open to everyone who sees the mine (issue 13): scoped by the mine.
    const own = new Set<EndpointName>([
      'alarmAck',
      // Marking read touches only the caller's own messages (another user's answers not found).
      'inboxRead',
      'inboxReadAll',
      // A test notification to one's own addresses; one's own notification language.
      'notifyTest',
      'notifyLanguage',
      'login',
      'logout',
      'setUserInfo',
      'changePassword',
      'totpSetup',
      'totpEnable',
      'totpDisable',
    ]);
    const loose = table
      .filter(([name, e]) => e.mutates && !own.has(name))
      .filter(([, e]) => e.permission === 'user' || e.permission === 'public')
      .map(([name]) => name);
    expect(loose).toEqual([]);
  });
});

describeDb('sub-account status', () => {
  it('refuses the token of a sub-account the master disables, at once', async () => {
    const t = await buildTestApp();
    try {
      const master = await createMaster(t.app);
      const masterToken = await login(t.app, master);
      const area = await createArea(t.app, master.id);
      const sub = await createSubAccount(t.app, master, [area.id]);
      const token = await login(t.app, sub);
      const list = () => get(t.app, '/index/fbox.area/index', {}, { token }).then((r) => r.json());
      expect(await list()).toMatchObject({ code: 1, data: [{ id: area.id }] });
      expect(await list()).toMatchObject({ code: 1 });
      const disabled = await post(
        t.app,
        '/index/fbox.user/edit',
        { id: sub.id, status: 'disabled' },
        { token: masterToken },
      );
      expect(disabled.json().code).toBe(1);
      expect((await list()).code).toBe(Code.NOT_LOGGED_IN);
    } finally {
      await t.close();
    }
  });

  it('refuses it within two seconds when the database is changed behind the API', async () => {
    const t = await buildTestApp();
    try {
      const master = await createMaster(t.app);
      const area = await createArea(t.app, master.id);
      const sub = await createSubAccount(t.app, master, [area.id]);
      const token = await login(t.app, sub);
      const list = () => get(t.app, '/index/fbox.area/index', {}, { token }).then((r) => r.json());
      expect(await list()).toMatchObject({ code: 1 });
      await t.app.db.updateTable('users').set({ status: 0 }).where('id', '=', sub.id).execute();
      t.clock.advance(2_000);
      expect((await list()).code).toBe(Code.NOT_LOGGED_IN);
    } finally {
      await t.close();
    }
  });
});

describeDb('operator rules set by the master', () => {
  it('refuses a restart without minerControl, allows it once the master ticks the rule', async () => {
    const t = await buildTestApp();
    try {
      const master = await createMaster(t.app);
      const master2 = await createMaster(t.app);
      const token = await login(t.app, master);
      const area = await createArea(t.app, master.id);
      const other = await createArea(t.app, master.id);
      const box = await createFbox(t.app, area.id);
      const [minerId] = await createMiners(t.app, box, [{ sn: 'SN-R1', online: 1 }]);
      const foreignBox = await createFbox(t.app, (await createArea(t.app, master2.id)).id);
      const [foreignMiner] = await createMiners(t.app, foreignBox, [{ sn: 'SN-F1' }]);
      const created = await post(
        t.app,
        '/index/fbox.user/create',
        {
          username: 'op_rules',
          password: 'op-rules-pass',
          nickname: 'Op',
          mobile: '1 5550199',
          email: 'op.rules@example.com',
          authority: 'operator',
          area_ids: [area.id],
          rules: ['tankControl'],
        },
        { token },
      );
      expect(created.json().code).toBe(1);
      const op = await login(t.app, {
        id: created.json().data.id,
        username: 'op_rules',
        password: 'op-rules-pass',
      });
      const restart = (areaId: number, id: number | undefined) =>
        post(t.app, '/index/fbox.miner/restart', { area_id: areaId, ids: [id] }, { token: op }).then((r) =>
          r.json(),
        );
      const commands = () => t.app.db.selectFrom('commands').select('id').execute();

      expect(await restart(area.id, minerId)).toMatchObject({ code: Code.FORBIDDEN });
      expect(await commands()).toEqual([]);

      await post(
        t.app,
        '/index/fbox.user/edit',
        { id: created.json().data.id, rules: ['minerControl'] },
        { token },
      );
      const res = await restart(area.id, minerId);
      expect(res).toMatchObject({
        code: 1,
        data: { commands: [{ miner_id: minerId, status: expect.any(String) }] },
      });
      expect(await commands()).toHaveLength(1);

      // Still no configuration writes, and only the managed mine exists for it.
      const edit = await post(
        t.app,
        '/index/fbox.boxlist/edit',
        { area_id: area.id, id: box.id, name: 'X' },
        { token: op },
      );
      expect(edit.json().code).toBe(Code.FORBIDDEN);
      expect(await restart(other.id, minerId)).toMatchObject({ code: Code.NOT_FOUND });
      expect(await restart(foreignBox.areaId, foreignMiner)).toMatchObject({ code: Code.NOT_FOUND });
      const detail = await get(
        t.app,
        '/index/fbox.boxlist/detail',
        { area_id: String(other.id), id: String(box.id) },
        { token: op },
      );
      expect(detail.json().code).toBe(Code.NOT_FOUND);
      expect(await commands()).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
