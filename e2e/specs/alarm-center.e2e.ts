import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, LIVE_TIMEOUT, reportedBoxes, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { choose, downloadFromMenu, expectTranslated, row, rowWith, signedIn } from '../lib/page.js';
import { freePort, type RunningServer, startServer } from '../lib/server.js';
import { simulatorFault } from '../lib/simulator.js';

/**
 * The alarm center from a fault to an inbox: a user adds a rule on the FBOX alert rules screen, a
 * fault is injected into the demo's simulator with its CLI (`npm run simulate -- fault …`), the
 * alert opens live on the realtime page and in the top bar's alert badge, the e-mail reaches a
 * real SMTP server in this process, and clearing the fault moves the alert to history with its
 * duration.
 */

let server: RunningServer;
let browser: Browser;
let api: Api;
let smtp: SMTPServer;
let mqttPort = 0;
let areaId = 0;
/** Mail the SMTP server accepted: envelope recipients and the raw message. */
const mails: { to: string[]; raw: string }[] = [];

const fault = (...args: string[]) => simulatorFault(mqttPort, ...args);

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  mqttPort = await freePort();
  [server, browser] = await Promise.all([
    startServer({
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'FBOX Alerts <alerts@fbox.test>',
      MQTT_PORT: String(mqttPort),
      NOTIFY_GROUP_SECONDS: '1',
    }),
    launchBrowser(),
  ]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
  // The admin takes critical alerts by e-mail.
  const saved = await api.postJson('/index/fbox.user/setuserinfo', {
    pushContent: {
      alertLevel: [1],
      checkList: ['email'],
      emailList: ['ops@fbox.test'],
      mobileList: [],
      teamsUrlList: [],
      telegramList: [],
    },
  });
  expect(saved.code, saved.msg).toBe(1);
}, 120_000);

afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

describe('alarm center', () => {
  it('a rule added in the console fires on an injected fault, live, by e-mail, and recovers into history', async () => {
    const boxes = await reportedBoxes(server, api, areaId);
    const box = boxes[0]!;
    const { page, context, errors } = await signedIn(browser, server, 'en');

    // A critical rule on phase voltage, with no sustain time, through the rules screen.
    await page.goto(`${server.url}/alarm/fboxRules`);
    await page.getByTestId('alert-rules-table').waitFor();
    await page.getByTestId('alert-rule-add').click();
    const form = page.getByTestId('alert-rule-form');
    await choose(page, form.getByTestId('alert-rule-metric'), 'Phase voltage out of range');
    await choose(page, form.getByTestId('alert-rule-level'), 'Critical');
    // Bad input first: the upper limit below the lower one is refused on its field.
    await form.getByTestId('alert-rule-threshold').fill('350');
    await form.getByTestId('alert-rule-threshold-max').fill('340');
    await form.getByTestId('alert-rule-sustain').fill('0');
    await page.locator('.ant-modal-footer').getByRole('button', { name: /save/i }).click();
    await form.locator('.ant-form-item-explain-error').first().waitFor();
    await form.getByTestId('alert-rule-threshold-max').fill('450');
    await page.locator('.ant-modal-footer').getByRole('button', { name: /save/i }).click();
    await form.waitFor({ state: 'detached' });
    const rules = page.getByTestId('alert-rules-table');
    await rowWith(rules, 'outside 350–450 V').first().waitFor();
    expect(await rowWith(rules, 'outside 350–450 V').first().innerText()).toContain('Critical');

    // The fault, from the simulator's CLI: phase A of the first box sags to ~330 V.
    const injected = await fault('voltage_sag', '--fbox', box.device_id, '--duration', '10m');
    expect(injected.stdout).toContain('voltage_sag');
    await page.goto(`${server.url}/alarm/currentAlarm`);
    const table = page.getByTestId('alarm-current-table');
    const critical = rowWith(table, 'Critical').filter({ hasText: 'Phase voltage out of range' }).filter({
      hasText: box.name,
    });
    await expect.poll(() => critical.count(), { timeout: LIVE_TIMEOUT }).toBeGreaterThan(0);
    await expect
      .poll(async () => Number(await page.getByTestId('alert-badge').getAttribute('data-count')), {
        timeout: LIVE_TIMEOUT,
      })
      .toBeGreaterThan(0);
    const key = (await critical.first().getAttribute('data-row-key')) ?? '';

    // The e-mail reached the SMTP server, naming the rule and the box.
    await expect
      .poll(
        () => mails.find((m) => m.raw.includes('Phase voltage out of range') && m.raw.includes(box.name)),
        {
          timeout: LIVE_TIMEOUT,
        },
      )
      .toBeDefined();
    expect(mails[0]!.to).toEqual(['ops@fbox.test']);

    // Cleared: the next report is back in range, the alert closes and moves to history.
    await fault('clear', 'voltage_sag', '--fbox', box.device_id);
    await expect.poll(() => row(table, key).count(), { timeout: LIVE_TIMEOUT }).toBe(0);
    await page.goto(`${server.url}/alarm/historyAlarm`);
    const closed = row(page.getByTestId('alarm-history-table'), key);
    await closed.waitFor({ timeout: LIVE_TIMEOUT });
    expect(await closed.innerText()).toMatch(/Recovered/);
    expect(await closed.innerText()).toMatch(/\d+ s/);
    // The history as a file, with the rule and the box.
    const file = await downloadFromMenu(page, page.getByTestId('alarm-export'), 'Export CSV');
    const csv = readFileSync(await file.path(), 'utf8');
    expect(csv).toContain('Phase voltage out of range');
    expect(csv).toContain(box.name);
    expect(errors).toEqual([]);
    await context.close();

    const zh = await signedIn(browser, server, 'zh');
    await zh.page.goto(`${server.url}/alarm/fboxRules`);
    await rowWith(zh.page.getByTestId('alert-rules-table'), '超出 350–450 V').first().waitFor();
    await expectTranslated(zh.page.locator('body'), ['alarm', 'alertMetric', 'alertLevel']);
    await zh.page.goto(`${server.url}/alarm/historyAlarm`);
    await row(zh.page.getByTestId('alarm-history-table'), key).waitFor();
    expect(await row(zh.page.getByTestId('alarm-history-table'), key).innerText()).toContain('已恢复');
    expect(zh.errors).toEqual([]);
    await zh.context.close();
  });
});
