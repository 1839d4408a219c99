import { Code } from '@fbox/contracts';
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
import { waitFor } from '../../test/mqtt-client.js';
import {
  notifications,
  setPush,
  startProviders,
  telemetrySender,
  temperature,
} from '../../test/notify-providers.js';

const s = 1000;

describeDb('alert notifications', () => {
  let providers: Awaited<ReturnType<typeof startProviders>>;
  let t: TestApp;
  let master: TestUser;
  let fbox: CreatedFbox;
  let send: ReturnType<typeof telemetrySender>;

  beforeEach(async () => {
    providers = await startProviders();
    t = await buildTestApp({ config: { notify: providers.notify() } });
    master = await createMaster(t.app);
    const area = await createArea(t.app, master.id, 'North Mine');
    fbox = await createFbox(t.app, area.id, { tanks: 1, name: 'Box A' });
    send = telemetrySender(fbox, t.clock);
  });
  afterEach(async () => {
    await t.close();
    await providers.close();
  });

  /** Container 50 °C for 60 s: the major `fbox_temp_high` alert opens. */
  const fire = async () => {
    await send(t.app, temperature(50));
    t.clock.advance(60 * s);
    await send(t.app, temperature(52));
  };
  /** Moves past the grouping delay and runs the sender. */
  const deliver = async (ms = 5 * s) => {
    t.clock.advance(ms);
    return t.app.notifySender.sendDue();
  };

  it('sends a fired and a recovered alert on every channel, each as its provider expects', async () => {
    const webhook = `${providers.teams.url}/webhookb2/abc`;
    await setPush(t.app, master.id, {
      email: ['ops@example.com'],
      sms: ['+86 13800000000'],
      teams: [webhook],
      telegram: ['-100123'],
      smsTimes: 5,
      timeZone: 'UTC+8',
    });
    // A sub-account of the mine, reading Chinese, by e-mail only; another account's user gets nothing.
    const sub = await createSubAccount(t.app, master, [fbox.area_id]);
    await setPush(t.app, sub.id, { email: ['sub@example.com'], timeZone: 'UTC-5' });
    await post(
      t.app,
      '/index/fbox.notify/language',
      {},
      { token: await login(t.app, sub), headers: { lang: 'zh-cn' } },
    );
    const other = await createMaster(t.app);
    await setPush(t.app, other.id, { email: ['other@example.com'] });

    await fire();
    const rows = await notifications(t.app);
    expect(rows.map((r) => [r.user_id, r.channel, r.kind, r.status])).toEqual([
      [master.id, 'email', 'fired', 'pending'],
      [master.id, 'sms', 'fired', 'pending'],
      [master.id, 'teams', 'fired', 'pending'],
      [master.id, 'telegram', 'fired', 'pending'],
      [sub.id, 'email', 'fired', 'pending'],
    ]);
    // Nothing goes out before the grouping delay.
    expect(await t.app.notifySender.sendDue()).toBe(0);
    expect(providers.smtp.mails).toEqual([]);

    expect(await deliver()).toBe(5);
    const sent = await notifications(t.app);
    expect(sent.every((r) => r.status === 'sent' && r.attempts === 1 && r.sent_at === t.clock.ms)).toBe(true);

    // E-mail: from MAIL_FROM, localized, in the reader's time zone, with the link.
    const mails = Object.fromEntries(providers.smtp.mails.map((m) => [m.to[0], m]));
    expect(providers.smtp.mails).toHaveLength(2);
    const en = mails['ops@example.com']!;
    expect(en.from).toBe('alerts@fbox.example');
    expect(en.subject).toBe('[Major] Container temperature high: Box A (North Mine)');
    expect(en.text).toBe(
      [
        'Rule: Container temperature high',
        'Level: Major',
        'Mine: North Mine',
        'Device: Box A',
        'Value: 52 °C',
        'Since: 2025-01-01 08:01:00 UTC+8',
        '',
        `https://console.example/alarm/currentAlarm?area_id=${fbox.area_id}`,
        '',
      ].join('\n'),
    );
    // The sub-account reads Chinese, in its own time zone.
    const zh = mails['sub@example.com']!;
    expect(zh.subject).toBe('[重要] 箱体温度过高：Box A（North Mine）');
    expect(zh.text).toContain('开始时间：2024-12-31 19:01:00 UTC-5');

    // Telegram: POST /bot<token>/sendMessage with chat_id and text.
    expect(providers.telegram.requests).toHaveLength(1);
    const tg = providers.telegram.requests[0]!;
    expect(tg.method).toBe('POST');
    expect(tg.url).toBe('/bot123456:SECRET-bot-token/sendMessage');
    expect(tg.headers['content-type']).toBe('application/json');
    const tgBody = JSON.parse(tg.body);
    expect(tgBody.chat_id).toBe('-100123');
    expect(tgBody.text).toContain('[Major] Container temperature high: Box A (North Mine)');

    // Teams: an Adaptive Card message to the webhook.
    expect(providers.teams.requests).toHaveLength(1);
    const card = JSON.parse(providers.teams.requests[0]!.body);
    expect(providers.teams.requests[0]!.url).toBe('/webhookb2/abc');
    expect(card.type).toBe('message');
    expect(card.attachments[0].contentType).toBe('application/vnd.microsoft.card.adaptive');
    expect(card.attachments[0].content.type).toBe('AdaptiveCard');
    expect(card.attachments[0].content.body[0].text).toContain('Container temperature high');
    expect(card.attachments[0].content.actions[0]).toMatchObject({ type: 'Action.OpenUrl' });

    // SMS: Twilio's Messages API, form-encoded, basic auth; one credit taken.
    expect(providers.sms.requests).toHaveLength(1);
    const sms = providers.sms.requests[0]!;
    expect(sms.url).toBe('/2010-04-01/Accounts/AC0123456789/Messages.json');
    expect(sms.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sms.headers.authorization).toBe(
      `Basic ${Buffer.from('AC0123456789:twilio-secret-token').toString('base64')}`,
    );
    const form = new URLSearchParams(sms.body);
    expect(form.get('To')).toBe('+8613800000000');
    expect(form.get('From')).toBe('+15550006666');
    expect(form.get('Body')).toContain('Container temperature high');
    const user = await t.app.db
      .selectFrom('users')
      .select('sms_times')
      .where('id', '=', master.id)
      .executeTakeFirstOrThrow();
    expect(user.sms_times).toBe(4);

    // Sending again sends nothing; the recovery is one more message per channel, to history.
    expect(await deliver()).toBe(0);
    await send(t.app, temperature(30));
    expect(await deliver()).toBe(5);
    expect(providers.smtp.mails).toHaveLength(4);
    const recovered = providers.smtp.mails.find(
      (m) => m.to[0] === 'ops@example.com' && m.subject.startsWith('[Recovered]'),
    )!;
    expect(recovered.text).toContain('Recovered: 2025-01-01 08:01:10 UTC+8');
    expect(recovered.text).toContain(`https://console.example/alarm/historyAlarm?area_id=${fbox.area_id}`);
    expect(providers.telegram.requests).toHaveLength(2);
    expect(providers.teams.requests).toHaveLength(2);
    expect(providers.sms.requests).toHaveLength(2);
  });

  it('sends one message for 200 miners of one FBOX going offline together', async () => {
    await setPush(t.app, master.id, { email: ['ops@example.com'], telegram: ['42'] });
    const down = (msg: Parameters<Parameters<typeof send>[1] & object>[0]) => {
      for (const miner of msg.miners) miner.online = false;
    };
    await send(t.app, down, 200);
    t.clock.advance(300 * s);
    await send(t.app, down, 200);
    expect(await notifications(t.app)).toHaveLength(400);
    expect(await deliver()).toBe(2);
    expect(providers.smtp.mails).toHaveLength(1);
    expect(providers.smtp.mails[0]!.subject).toMatch(/^\[Major\] 200 miners of FBOX Box A: Miner offline/);
    expect(providers.smtp.mails[0]!.text).toContain('Devices: acct.1x0, acct.1x1,');
    expect(providers.telegram.requests).toHaveLength(1);
    expect(JSON.parse(providers.telegram.requests[0]!.body).text).toContain('… and 190 more');
    expect((await notifications(t.app)).every((r) => r.status === 'sent')).toBe(true);
    // They come back together: one recovery message.
    await send(t.app, () => {}, 200);
    expect(await deliver()).toBe(2);
    expect(providers.smtp.mails[1]!.subject).toMatch(/^\[Recovered\] 200 miners of FBOX Box A/);
  });

  it('retries a timeout, HTTP 5xx and SMTP 451 with backoff, and sends each once', async () => {
    await setPush(t.app, master.id, {
      email: ['ops@example.com'],
      teams: [`${providers.teams.url}/hook`],
      telegram: ['42'],
    });
    providers.smtp.state.reply = (n) => (n === 1 ? 451 : 'ok');
    providers.telegram.holder.reply = (_r, n) =>
      n === 1
        ? { status: 500, body: { ok: false, error_code: 500, description: 'Internal Server Error' } }
        : { status: 200, body: { ok: true, result: {} } };
    providers.teams.holder.reply = (_r, n) => (n === 1 ? 'hang' : { status: 200, body: '1' });
    await fire();
    expect(await deliver()).toBe(3);
    const failed = await notifications(t.app);
    expect(failed.map((r) => [r.channel, r.status, r.attempts])).toEqual([
      ['email', 'pending', 1],
      ['teams', 'pending', 1],
      ['telegram', 'pending', 1],
    ]);
    expect(failed.find((r) => r.channel === 'email')!.last_error).toMatch(/^SMTP 451/);
    expect(failed.find((r) => r.channel === 'telegram')!.last_error).toBe('HTTP 500: Internal Server Error');
    expect(failed.find((r) => r.channel === 'teams')!.last_error).toMatch(/timed out/);
    // Not before the backoff (10 s).
    expect(await deliver(5 * s)).toBe(0);
    expect(await deliver(5 * s)).toBe(3);
    expect((await notifications(t.app)).map((r) => [r.status, r.attempts, r.last_error])).toEqual([
      ['sent', 2, null],
      ['sent', 2, null],
      ['sent', 2, null],
    ]);
    expect(providers.smtp.mails).toHaveLength(1);
    expect(providers.telegram.requests).toHaveLength(2);
    expect(providers.teams.requests).toHaveLength(2);
    expect(await deliver(3600 * s)).toBe(0);
  });

  it('fails at once on SMTP 5xx and HTTP 4xx, and after the last try on repeated 5xx', async () => {
    await setPush(t.app, master.id, {
      email: ['ops@example.com'],
      telegram: ['42'],
      sms: ['+1 5550001111'],
      smsTimes: 3,
    });
    providers.smtp.state.reply = () => 550;
    providers.telegram.holder.reply = () => ({
      status: 400,
      body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' },
    });
    providers.sms.holder.reply = () => ({
      status: 503,
      body: { code: 20503, message: 'Service unavailable', status: 503 },
    });
    await fire();
    await deliver();
    const byChannel = async () => Object.fromEntries((await notifications(t.app)).map((r) => [r.channel, r]));
    let rows = await byChannel();
    expect(rows.email).toMatchObject({ status: 'failed', attempts: 1 });
    expect(rows.email!.last_error).toMatch(/^SMTP 550/);
    expect(rows.telegram).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_error: 'HTTP 400: Bad Request: chat not found',
    });
    expect(rows.sms).toMatchObject({ status: 'pending', attempts: 1 });
    await deliver(10 * s);
    await deliver(30 * s);
    rows = await byChannel();
    expect(rows.sms).toMatchObject({
      status: 'failed',
      attempts: 3,
      last_error: 'HTTP 503: Service unavailable (20503)',
    });
    expect(providers.sms.requests).toHaveLength(3);
    // Credits of SMS the provider did not take are given back.
    const user = await t.app.db
      .selectFrom('users')
      .select('sms_times')
      .where('id', '=', master.id)
      .executeTakeFirstOrThrow();
    expect(user.sms_times).toBe(3);
    // The token never appears in what is stored.
    expect(JSON.stringify(await notifications(t.app))).not.toContain('SECRET-bot-token');
  });

  it("waits the Bot API's retry_after on HTTP 429", async () => {
    await setPush(t.app, master.id, { telegram: ['42'] });
    providers.telegram.holder.reply = (_r, n) =>
      n === 1
        ? {
            status: 429,
            body: {
              ok: false,
              error_code: 429,
              description: 'Too Many Requests: retry after 60',
              parameters: { retry_after: 60 },
            },
          }
        : { status: 200, body: { ok: true, result: {} } };
    await fire();
    await deliver();
    const [row] = await notifications(t.app);
    expect(row).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: t.clock.ms + 60 * s });
    expect(row!.last_error).toBe('HTTP 429: Too Many Requests: retry after 60');
    expect(await deliver(59 * s)).toBe(0);
    expect(await deliver(1 * s)).toBe(1);
    expect((await notifications(t.app))[0]).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('sends no SMS without credit, and the user sees why', async () => {
    await setPush(t.app, master.id, { sms: ['+1 5550001111'], smsTimes: 1 });
    await fire();
    await deliver();
    await send(t.app, temperature(30));
    await deliver();
    expect(providers.sms.requests).toHaveLength(1);
    expect((await notifications(t.app)).map((r) => [r.kind, r.status, r.last_error])).toEqual([
      ['fired', 'sent', null],
      ['recovered', 'failed', 'no SMS credit'],
    ]);
    const token = await login(t.app, master);
    const alert = await t.app.db.selectFrom('alerts').select('id').executeTakeFirstOrThrow();
    const list = await get(
      t.app,
      '/index/fbox.notify/alert',
      { area_id: String(fbox.area_id), id: String(alert.id) },
      { token },
    );
    expect(list.json()).toMatchObject({
      code: 1,
      data: [
        {
          kind: 'recovered',
          channel: 'sms',
          status: 'failed',
          last_error: 'no SMS credit left',
          address: '+1 5550001111',
          attempts: 1,
        },
        { kind: 'fired', channel: 'sms', status: 'sent', recipient: master.username },
      ],
    });
    const zh = await get(
      t.app,
      '/index/fbox.notify/alert',
      { area_id: String(fbox.area_id), id: String(alert.id) },
      { token, headers: { lang: 'zh-cn' } },
    );
    expect(zh.json().data[0].last_error).toBe('短信余量不足');
    // Another account's master cannot read them.
    const other = await createMaster(t.app);
    const foreign = await get(
      t.app,
      '/index/fbox.notify/alert',
      { area_id: String(fbox.area_id), id: String(alert.id) },
      { token: await login(t.app, other) },
    );
    expect(foreign.json().code).toBe(Code.NOT_FOUND);
  });

  it('routes by the chosen levels and checked channels', async () => {
    await setPush(t.app, master.id, { levels: [1], email: ['ops@example.com'] });
    await fire();
    expect(await notifications(t.app)).toEqual([]);
  });

  it('answers the configured channels and sends test notifications with their real outcome', async () => {
    const token = await login(t.app, master);
    expect((await get(t.app, '/index/fbox.notify/channels', {}, { token })).json()).toMatchObject({
      code: 1,
      data: { email: true, sms: true, teams: true, telegram: true },
    });
    // No saved address: a field error.
    const none = await post(t.app, '/index/fbox.notify/test', { channel: 'email' }, { token });
    expect(none.json()).toMatchObject({
      code: Code.VALIDATION,
      data: { errors: [{ field: 'channel', rule: 'rule.notifyNoAddress' }] },
    });
    const bad = await post(t.app, '/index/fbox.notify/test', { channel: 'fax' }, { token });
    expect(bad.json().code).toBe(Code.VALIDATION);

    await setPush(t.app, master.id, { email: ['ops@example.com'], telegram: ['42', '43'] });
    const mail = await post(t.app, '/index/fbox.notify/test', { channel: 'email' }, { token });
    expect(mail.json()).toMatchObject({
      code: 1,
      data: { results: [{ address: 'ops@example.com', ok: true, error: null }] },
    });
    expect(providers.smtp.mails[0]!.subject).toBe('FBOX Cloud test notification');

    providers.telegram.holder.reply = (req) =>
      JSON.parse(req.body).chat_id === '43'
        ? {
            status: 403,
            body: { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' },
          }
        : { status: 200, body: { ok: true, result: {} } };
    const tg = await post(t.app, '/index/fbox.notify/test', { channel: 'telegram' }, { token });
    expect(tg.json().data.results).toEqual([
      { address: '42', ok: true, error: null },
      { address: '43', ok: false, error: 'HTTP 403: Forbidden: bot was blocked by the user' },
    ]);
    expect(tg.body).not.toContain('SECRET');
  });

  it('writes no rows for a channel the server is not configured for, and says so', async () => {
    await t.close();
    t = await buildTestApp({
      config: { notify: providers.notify({ smtp: null, telegram: null, sms: null }) },
    });
    master = await createMaster(t.app);
    const area = await createArea(t.app, master.id);
    fbox = await createFbox(t.app, area.id, { tanks: 1, name: 'Box B' });
    send = telemetrySender(fbox, t.clock);
    await setPush(t.app, master.id, { email: ['ops@example.com'], teams: [`${providers.teams.url}/hook`] });
    const token = await login(t.app, master);
    expect((await get(t.app, '/index/fbox.notify/channels', {}, { token })).json().data).toEqual({
      email: false,
      sms: false,
      teams: true,
      telegram: false,
    });
    await fire();
    expect((await notifications(t.app)).map((r) => r.channel)).toEqual(['teams']);
    const test = await post(t.app, '/index/fbox.notify/test', { channel: 'email' }, { token });
    expect(test.json().data.results).toEqual([
      { address: 'ops@example.com', ok: false, error: 'this channel is not configured on the server' },
    ]);
  });

  it('sends right after a transition once the job loop runs, without waiting for the job', async () => {
    await t.close();
    t = await buildTestApp({ config: { notify: providers.notify({ groupMs: 0 }) } });
    master = await createMaster(t.app);
    const area = await createArea(t.app, master.id, 'Mine C');
    fbox = await createFbox(t.app, area.id, { tanks: 1, name: 'Box C' });
    send = telemetrySender(fbox, t.clock);
    await setPush(t.app, master.id, { email: ['ops@example.com'] });
    // The loop's own ticks are an hour apart: only the kick can send within the test.
    t.app.jobs.start(3_600_000);
    await fire();
    await waitFor(() => providers.smtp.mails.length === 1, 5_000);
    expect(providers.smtp.mails[0]!.subject).toBe('[Major] Container temperature high: Box C (Mine C)');
    await t.app.notifySender.settled();
    expect((await notifications(t.app)).map((r) => r.status)).toEqual(['sent']);
  });

  it('sends rows claimed by a process that died once its lease runs out', async () => {
    await setPush(t.app, master.id, { email: ['ops@example.com'] });
    await fire();
    t.clock.advance(5 * s);
    const [row] = await notifications(t.app);
    // A process claimed the group and died before sending.
    const { NotifyRepository } = await import('./notify.repository.js');
    const claimed = await new NotifyRepository(t.app.db).claimGroup(
      row!.group_key,
      'dead-process',
      t.clock.ms,
      t.clock.ms,
      t.clock.ms + 60 * s,
    );
    expect(claimed).toEqual([row!.id]);
    expect(await t.app.notifySender.sendDue()).toBe(0);
    expect(await deliver(59 * s)).toBe(0);
    expect(await deliver(1 * s)).toBe(1);
    expect(await deliver(60 * s)).toBe(0);
    expect(providers.smtp.mails).toHaveLength(1);
  });
});
