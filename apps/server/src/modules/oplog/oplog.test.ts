import { Code, type Endpoint, type EndpointName, endpoints, isRecordedEndpoint } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners } from '../../test/device-factories.js';
import {
  code,
  createArea,
  createMaster,
  createSubAccount,
  enableTotp,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';

const table = Object.entries(endpoints) as [EndpointName, Endpoint][];

describeDb('operation log: recording', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    areaId = (await createArea(t.app, master.id, 'North')).id;
    token = await login(t.app, master);
  });
  afterEach(() => t.close());

  const rows = () => t.app.db.selectFrom('operation_log').selectAll().orderBy('id').execute();
  const call = (e: Endpoint, input: Record<string, unknown>, tok = token) =>
    (e.method === 'GET'
      ? get(t.app, e.path, Object.fromEntries(Object.entries(input).map(([k, v]) => [k, String(v)])), {
          token: tok,
        })
      : post(t.app, e.path, input, { token: tok, remoteAddress: '203.0.113.9' })
    ).then((r) => (String(r.headers['content-type']).includes('json') ? r.json() : { code: Code.OK }));

  it('records every recorded endpoint once per call with who, where, what and the outcome', async () => {
    // The login above is the first record.
    expect(await rows()).toMatchObject([{ action: 'login', user_id: master.id, code: 1 }]);
    const recorded = table.filter(([name, e]) => isRecordedEndpoint(name, e) && name !== 'logout');
    expect(recorded.length).toBeGreaterThan(20);
    for (const [name, e] of recorded) {
      const before = await rows();
      const answer = await call(e, { area_id: areaId });
      const after = await rows();
      expect(after.slice(0, before.length), name).toEqual(before);
      expect(after.length, name).toBe(before.length + 1);
      expect(after.at(-1), name).toMatchObject({
        action: name,
        path: e.path,
        code: answer.code,
        ...(name === 'login'
          ? { user_id: null, master_id: null }
          : { user_id: master.id, username: master.username, master_id: master.id, ip: '203.0.113.9' }),
      });
    }
    const before = (await rows()).length;
    expect((await call(endpoints.logout, {})).code).toBe(Code.OK);
    expect((await rows()).slice(before)).toMatchObject([{ action: 'logout', user_id: master.id, code: 1 }]);
  });

  it('records nothing for reads', async () => {
    const fbox = await createFbox(t.app, areaId);
    const [minerId] = await createMiners(t.app, fbox, [{ sn: 'SN1' }]);
    const before = (await rows()).length;
    const reads = table.filter(([name, e]) => !isRecordedEndpoint(name, e));
    expect(reads.map(([name]) => name)).toEqual(
      expect.arrayContaining(['fboxList', 'minerExport', 'oplogList']),
    );
    for (const [, e] of reads) {
      await call(e, { area_id: areaId, id: minerId!, fbox_id: fbox.id });
      await call(e, {});
    }
    expect((await rows()).length).toBe(before);
  });

  it('records a success with its mine, target, parameters and localized message', async () => {
    const res = await post(
      t.app,
      '/index/fbox.boxlist/create',
      {
        area_id: areaId,
        name: 'Box 7',
        kind: 'air',
        collector1_password: 'p4ss',
        collector1_account: 'admin',
      },
      { token, remoteAddress: '198.51.100.4' },
    );
    expect(res.json().code).toBe(1);
    const row = (await rows()).at(-1)!;
    expect(row).toMatchObject({
      action: 'fboxCreate',
      user_id: master.id,
      username: master.username,
      master_id: master.id,
      ip: '198.51.100.4',
      area_id: areaId,
      area_name: 'North',
      target: 'Box 7',
      code: 1,
      message_key: 'api.modified',
    });
    expect(JSON.parse(row.params)).toMatchObject({
      area_id: areaId,
      name: 'Box 7',
      kind: 'air',
      collector1_account: 'admin',
      collector1_password: '***',
    });
    expect(row.params).not.toContain('p4ss');
    const list = (
      await get(t.app, '/index/fbox.oplog/index', {}, { token, headers: { lang: 'zh-cn' } })
    ).json();
    expect(list.data.items[0]).toMatchObject({
      action: 'fboxCreate',
      outcome: 'success',
      message: '修改成功',
    });
  });

  it('masks the password and Google code of a login, and the passwords of a password change', async () => {
    const secret = await enableTotp(t.app, master.id);
    const googleCode = code(secret, t.clock.now());
    await login(t.app, master, googleCode);
    await post(
      t.app,
      '/index/fbox.total/changepassword',
      { oldpassword: master.password, password: 'N3w-pass-99' },
      { token },
    );
    const [signIn, change] = (await rows()).slice(-2);
    expect(JSON.parse(signIn!.params)).toEqual({
      username: master.username,
      password: '***',
      googleCode: '***',
    });
    expect(JSON.parse(change!.params)).toEqual({ oldpassword: '***', password: '***' });
    for (const row of await rows()) {
      expect(row.params).not.toContain(master.password);
      expect(row.params).not.toContain(googleCode);
      expect(row.params).not.toContain('N3w-pass-99');
    }
  });

  it('records failures: not found, refused, invalid input, failed logins', async () => {
    const other = await createMaster(t.app);
    const foreignArea = (await createArea(t.app, other.id, 'Foreign')).id;
    await post(t.app, '/index/fbox.boxlist/deleted', { area_id: foreignArea, id: 1 }, { token });
    await post(t.app, '/index/fbox.boxlist/create', { area_id: areaId, name: '', kind: 'air' }, { token });
    const operator = await createSubAccount(t.app, master, [areaId], { rules: [] });
    const opToken = await login(t.app, operator);
    await post(t.app, '/index/fbox.miner/restart', { area_id: areaId, ids: [1] }, { token: opToken });
    await post(t.app, '/index/index/login', { username: master.username, password: 'wrong-password' });
    await post(t.app, '/index/index/login', { username: 'nobody-here', password: 'wrong-password' });
    const failed = (await rows()).filter((r) => r.code !== 1);
    expect(failed).toMatchObject([
      // The foreign mine is neither named nor attributed to this account's mine.
      {
        action: 'fboxDelete',
        code: Code.NOT_FOUND,
        message_key: 'api.notFound',
        area_id: null,
        area_name: null,
      },
      { action: 'fboxCreate', code: Code.VALIDATION, message_key: 'api.validation', area_id: areaId },
      { action: 'minerRestart', code: Code.FORBIDDEN, user_id: operator.id, master_id: master.id },
      { action: 'login', code: Code.LOGIN_FAILED, user_id: master.id, master_id: master.id },
      { action: 'login', code: Code.LOGIN_FAILED, user_id: null, username: 'nobody-here', master_id: null },
    ]);
    const items = (await get(t.app, '/index/fbox.oplog/index', { outcome: 'failed' }, { token })).json().data
      .items;
    expect(items.map((i: { message: string }) => i.message)).toEqual([
      'Incorrect username, password or Google Authenticator code',
      'You are not allowed to do this',
      'Name: is required',
      'Not found',
    ]);
  });

  it('never breaks the request when recording fails', async () => {
    const spy = vi.spyOn(t.app.oplog, 'record').mockRejectedValue(new Error('disk full'));
    const res = await post(
      t.app,
      '/index/fbox.area/create',
      { area_name: 'South', electricity_price: 0.06 },
      { token },
    );
    expect(res.json()).toMatchObject({ code: 1, data: { area_name: 'South' } });
    expect(spy).toHaveBeenCalledOnce();
  });

  it('offers no way to change or delete a record', () => {
    const oplog = table.filter(([name, e]) => name.startsWith('oplog') || e.path.includes('oplog'));
    expect(oplog.map(([name]) => name).sort()).toEqual(['oplogExport', 'oplogList', 'oplogUsers']);
    for (const [, e] of oplog) {
      expect(e.method).toBe('GET');
      expect(e.mutates).toBeUndefined();
    }
  });
});
