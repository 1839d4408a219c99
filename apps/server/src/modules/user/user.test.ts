import { Code, UserInfoSchema } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createMaster, createSubAccount, get, login, post } from '../../test/factories.js';

const INFO = '/index/fbox.user/getuserinfo';
const SET = '/index/fbox.user/setuserinfo';

const push = (overrides: Record<string, unknown> = {}) => ({
  alertLevel: [1, 3],
  checkList: ['email'],
  emailList: ['ops@example.com'],
  mobileList: [{ code: '', number: '' }],
  teamsUrlList: [''],
  telegramList: [''],
  ...overrides,
});

describeDb('user info', () => {
  let t: TestApp;
  let token: string;
  let info: () => Promise<Record<string, unknown>>;
  beforeEach(async () => {
    t = await buildTestApp();
    token = await login(t.app, await createMaster(t.app, { username: 'bob' }));
    info = async () => (await get(t.app, INFO, {}, { token })).json().data;
  });
  afterEach(() => t.close());

  const set = (body: Record<string, unknown>, form = true) =>
    post(t.app, SET, body, { token, form }).then((r) => r.json());

  it('returns every field of the contract, with defaults', async () => {
    const res = (await get(t.app, INFO, { area_id: '1', id: '1', output: 'json' }, { token })).json();
    expect(res).toMatchObject({ code: 1, msg: 'Success', info: 'Success' });
    const data = UserInfoSchema.strict().parse(res.data);
    expect(data).toMatchObject({
      username: 'bob',
      time_zone: 'UTC+8',
      headimg: 1,
      is_masterID: 1,
      global_config: '{"delay_switch_value":0}',
      alert_send_level: { 1: 1, 2: 1, 3: 0 },
      alert_send_level_lable: { 1: 'Critical', 2: 'Major', 3: 'Minor' },
      email_send: { status: 0, value: [] },
      sms_times: 100,
      google_auth: 0,
      roles: ['admin'],
    });
    const zh = (await get(t.app, INFO, {}, { token, headers: { lang: 'zh-cn' } })).json();
    expect(zh.data.alert_send_level_lable['1']).toBe('紧急');
  });

  it('stores the profile and switches', async () => {
    const res = await set({
      nickname: ' Bob ',
      email: 'Bob@Example.com',
      mobile: '86 13800138000',
      time_zone: 'UTC-5',
      headimg: '7',
      auto_frequency: 'on',
      pool_config_status: 'on',
      min: '10',
      max: '90',
      delay_switch_value: '2500',
    });
    expect(res).toMatchObject({ code: 1, msg: 'Modified successfully' });
    expect(res.data).toMatchObject({
      nickname: 'Bob',
      email: 'Bob@Example.com',
      mobile: '86 13800138000',
      time_zone: 'UTC-5',
      headimg: 7,
      auto_frequency: 1,
      auto_frequency_config: { min: 10, max: 90 },
      pool_config: { status: 1 },
      global_config: '{"delay_switch_value":2500}',
    });
    expect(await info()).toEqual(res.data);
    expect((await set({ auto_frequency: 'off', pool_config_status: 'off' })).data).toMatchObject({
      auto_frequency: 0,
      pool_config: { status: 0 },
    });
  });

  it('stores the push form from form-encoded JSON text and from a JSON body', async () => {
    const form = push({
      checkList: ['email', 'sms', 'teams', 'telegram'],
      emailList: ['a@example.com', 'b@example.com'],
      mobileList: [{ code: '86', number: '13800138000' }],
      teamsUrlList: ['https://example.webhook.office.com/x'],
      telegramList: ['-100123456'],
    });
    const res = await set({ pushContent: form });
    expect(res.code).toBe(1);
    expect(res.data).toMatchObject({
      alert_send_level: { 1: 1, 2: 0, 3: 1 },
      email_send: { status: 1, value: ['a@example.com', 'b@example.com'] },
      sms_send: { status: 1, value: ['86 13800138000'] },
      teams_send: { status: 1, value: ['https://example.webhook.office.com/x'] },
      telegram_send: { status: 1, value: ['-100123456'] },
    });
    const json = await set({ pushContent: push({ checkList: [] }) }, false);
    expect(json.data).toMatchObject({
      email_send: { status: 0, value: ['ops@example.com'] },
      sms_send: { status: 0, value: [] },
    });
  });

  const rejects: [string, Record<string, unknown>, string][] = [
    ['nickname required', { nickname: '  ' }, 'Nickname: is required'],
    ['time zone', { time_zone: 'UTC+13' }, 'Time zone: must be a time zone from UTC-12 to UTC+12'],
    ['email valid', { email: 'not-an-email' }, 'Email: must be a valid email address'],
    ['email required', { email: '' }, 'Email: is required'],
    [
      'phone country code 1–3 digits',
      { mobile: '8612 13800138000' },
      'Phone: number must be digits without spaces',
    ],
    ['phone without spaces', { mobile: '86 138 0013' }, 'Phone: number must be digits without spaces'],
    ['avatar 1–10', { headimg: '11' }, 'Avatar: must be a number from 1 to 10'],
    ['avatar not 0', { headimg: '0' }, 'Avatar: must be a number from 1 to 10'],
    [
      'delay switch ≤ 10000',
      { delay_switch_value: '10001' },
      'Delay Switch: must be a number from 0 to 10000',
    ],
    ['delay switch ≥ 0', { delay_switch_value: '-1' }, 'Delay Switch: must be a number from 0 to 10000'],
    ['min ≤ max', { min: '50', max: '10' }, 'Minimum: minimum must not be greater than maximum'],
    ['on/off', { auto_frequency: 'maybe' }, 'Auto Overclock: must be on or off'],
    [
      'at most 5 emails',
      { pushContent: push({ emailList: ['a@x.io', 'b@x.io', 'c@x.io', 'd@x.io', 'e@x.io', 'f@x.io'] }) },
      'Emails: at most 5 rows',
    ],
    [
      'invalid email row',
      { pushContent: push({ emailList: ['ok@x.io', 'nope'] }) },
      'Emails: must be a valid email address',
    ],
    [
      'at most 5 phones',
      { pushContent: push({ mobileList: Array(6).fill({ code: '1', number: '5550100' }) }) },
      'Phones: at most 5 rows',
    ],
    [
      'phone row code',
      { pushContent: push({ checkList: ['sms'], mobileList: [{ code: '1234', number: '5550100' }] }) },
      'Phones: country code must be 1 to 3 digits',
    ],
    [
      'phone row spaces',
      { pushContent: push({ checkList: ['sms'], mobileList: [{ code: '1', number: '555 0100' }] }) },
      'Phones: number must be digits without spaces',
    ],
    ['teams url when checked', { pushContent: push({ checkList: ['teams'] }) }, 'Teams address: Enter Team'],
    [
      'telegram id when checked',
      { pushContent: push({ checkList: ['telegram'] }) },
      'Telegram ChatID: Enter Telegram ChatID',
    ],
    ['push JSON', { pushContent: '{not json' }, 'Push settings: must be valid JSON'],
  ];

  for (const [name, body, msg] of rejects) {
    it(`rejects: ${name}, and changes nothing`, async () => {
      const before = await info();
      const res = await set({ nickname: 'Changed', ...body });
      expect(res).toMatchObject({ code: Code.VALIDATION, msg });
      expect(res.data.errors[0]).toMatchObject({ rule: expect.stringMatching(/^rule\./) });
      expect(await info()).toEqual(before);
    });
  }

  it('checks min against the stored max', async () => {
    await set({ min: '0', max: '20' });
    const res = await set({ min: '30' });
    expect(res).toMatchObject({ code: -2, msg: 'Minimum: minimum must not be greater than maximum' });
    expect(res.data.errors).toEqual([
      { field: 'min', rule: 'rule.minNotAboveMax', message: 'minimum must not be greater than maximum' },
    ]);
  });

  it('rejects an email (any case) or phone of another account of its own, and changes nothing', async () => {
    const bob = await t.app.db
      .selectFrom('users')
      .select('id')
      .where('username', '=', 'bob')
      .executeTakeFirstOrThrow();
    const sub = await createSubAccount(t.app, { id: bob.id, username: 'bob', password: '' });
    await post(
      t.app,
      SET,
      { email: 'taken@example.com', mobile: '1 5550100' },
      { token: await login(t.app, sub) },
    );
    const before = await info();
    expect(await set({ nickname: 'X', email: 'TAKEN@example.com' })).toMatchObject({
      code: Code.CONFLICT,
      msg: 'This email is already used by another account',
    });
    expect(await set({ nickname: 'X', mobile: '1 5550100' })).toMatchObject({
      code: Code.CONFLICT,
      msg: 'This phone number is already used by another account',
    });
    expect(await info()).toEqual(before);
    // The user's own values are not duplicates.
    await set({ email: 'me@example.com' });
    expect((await set({ email: 'ME@example.com' })).code).toBe(1);
  });

  it("accepts an email or phone that another master's account uses: nothing tells it exists", async () => {
    const other = await login(t.app, await createMaster(t.app));
    await post(t.app, SET, { email: 'taken@example.com', mobile: '1 5550100' }, { token: other });
    expect(await set({ email: 'TAKEN@example.com', mobile: '1 5550100' })).toMatchObject({
      code: 1,
      data: { email: 'TAKEN@example.com' },
    });
  });

  it('treats injection-looking text as plain data', async () => {
    const res = await set({ nickname: "' OR 1=1 --" });
    expect(res.data.nickname).toBe("' OR 1=1 --");
    const script = await set({ nickname: '<script>alert(1)</script>' });
    expect(script.data.nickname).toBe('<script>alert(1)</script>');
    expect((await set({ email: "x' OR 1=1 --@a.b" })).code).toBe(-2);
  });
});
