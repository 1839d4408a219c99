import { Code, endpoints } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createMaster, get, login, post, type TestUser } from '../../test/factories.js';

const INFO = '/index/fbox.user/getuserinfo';
const SET = '/index/fbox.user/setuserinfo';

describeDb('legacy HTTP adapter', () => {
  let t: TestApp;
  let user: TestUser;
  let token: string;
  beforeEach(async () => {
    t = await buildTestApp();
    user = await createMaster(t.app, { username: 'carol' });
    token = await login(t.app, user);
  });
  afterEach(() => t.close());

  const nickname = async () => (await get(t.app, INFO, {}, { token })).json().data.nickname;

  it('serves every endpoint also under /api with the same answer', async () => {
    expect((await get(t.app, `/api${INFO}`, {}, { token })).json()).toEqual(
      (await get(t.app, INFO, {}, { token })).json(),
    );
    const res = await post(
      t.app,
      '/api/index/index/login',
      { username: 'carol', password: user.password },
      { form: true },
    );
    expect(res.json().code).toBe(1);
    for (const e of Object.values(endpoints)) {
      const url = `/api${e.path}`;
      const r = e.method === 'GET' ? await get(t.app, url) : await post(t.app, url, {});
      expect(r.statusCode, url).toBe(200);
      expect(r.json().code, url).toBe(e.permission === 'public' ? Code.VALIDATION : Code.NOT_LOGGED_IN);
    }
  });

  it('localizes msg from the lang header and the language cookie', async () => {
    const header = (
      await post(
        t.app,
        '/index/index/login',
        { username: 'x', password: 'y' },
        { headers: { lang: 'zh-cn' } },
      )
    ).json();
    expect(header.msg).toBe('用户名、密码或谷歌验证码错误');
    const cookie = (await get(t.app, INFO, {}, { cookies: { language: 'zh' } })).json();
    expect(cookie).toMatchObject({ code: -9000, msg: '请重新登录' });
    const lang = (await get(t.app, INFO, {}, { cookies: { lang: 'zh' } })).json();
    expect(lang.msg).toBe('请重新登录');
    const en = (
      await get(t.app, INFO, {}, { headers: { lang: 'en-us' }, cookies: { language: 'zh' } })
    ).json();
    expect(en.msg).toBe('Please log in again');
    const zhValidation = (
      await post(t.app, SET, { nickname: '' }, { token, headers: { lang: 'zh-cn' } })
    ).json();
    expect(zhValidation.msg).toBe('昵称：不能为空');
  });

  it('names the field and rule of missing and wrongly typed input', async () => {
    const missing = (await post(t.app, '/index/index/login', {})).json();
    expect(missing).toEqual({
      code: Code.VALIDATION,
      msg: 'Username: is required',
      data: {
        errors: [
          { field: 'username', rule: 'rule.required', message: 'is required' },
          { field: 'password', rule: 'rule.required', message: 'is required' },
        ],
      },
    });
    const typed = (await post(t.app, '/index/index/login', { username: 42, password: ['a'] })).json();
    expect(typed.data.errors.map((e: { rule: string }) => e.rule)).toEqual([
      'rule.invalidType',
      'rule.invalidType',
    ]);
    const array = await post(t.app, SET, [1, 2] as unknown as Record<string, unknown>, { token });
    expect(array.json()).toMatchObject({ code: -2, msg: 'Request: has the wrong type' });
    const nested = (await post(t.app, SET, { pushContent: { alertLevel: 'x' } }, { token })).json();
    expect(nested.code).toBe(-2);
    expect(nested.data.errors[0].field).toMatch(/^pushContent\./);
  });

  it('ignores unknown fields and output=json', async () => {
    const res = await post(
      t.app,
      `${SET}?output=json&area_id=3`,
      { nickname: 'Z', is_master: 0, role: 'root' },
      { token, form: true },
    );
    expect(res.json()).toMatchObject({ code: 1, data: { nickname: 'Z', is_masterID: 1 } });
  });

  it('answers transport errors with a clear envelope and writes nothing', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: SET,
      headers: { logintoken: token, 'content-type': 'application/json' },
      payload: '{"nickname": "broken"',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ code: -2, msg: 'The request could not be read', data: null });

    const big = await post(t.app, SET, { nickname: 'x'.repeat(1_100_000) }, { token });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ code: -2, msg: 'The request is too large', data: null });

    const wrongType = await t.app.inject({
      method: 'POST',
      url: SET,
      headers: { logintoken: token, 'content-type': 'text/xml' },
      payload: '<nickname>x</nickname>',
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json().code).toBe(-2);

    const zh = await t.app.inject({
      method: 'POST',
      url: SET,
      headers: { logintoken: token, 'content-type': 'application/json', lang: 'zh-cn' },
      payload: '{',
    });
    expect(zh.json().msg).toBe('无法解析请求');
    expect(await nickname()).toBe('carol');
  });

  it('treats injection-looking input as data', async () => {
    for (const username of ["' OR 1=1 --", "admin'--", '<script>alert(1)</script>', 'carol" OR "1"="1']) {
      const res = await post(t.app, '/index/index/login', { username, password: "' OR '1'='1" });
      expect(res.statusCode).toBe(200);
      expect(res.json().code).toBe(-1);
    }
    const res = await get(t.app, INFO, { area_id: '1; DROP TABLE users' }, { token });
    expect(res.json()).toMatchObject({ code: -2 });
    expect(await nickname()).toBe('carol');
  });

  it('answers unknown API routes with a real 404 and an envelope', async () => {
    for (const url of ['/index/fbox.nope/index', '/api/index/x', '/ff-plat-api/api/unknown', '/api']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ code: Code.NOT_FOUND, msg: 'No such API route', data: null });
    }
    const post404 = await t.app.inject({ method: 'POST', url: '/index/fbox.user/getuserinfo', payload: {} });
    expect(post404.statusCode).toBe(404);
  });

  it('never leaks internals on an unexpected error', async () => {
    await t.app.db.schema.dropTable('messages').execute();
    const res = await get(t.app, '/index/fbox.message/unread', {}, { token });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      code: Code.SERVER_ERROR,
      msg: 'Server error, please try again later',
      data: null,
    });
  });
});
