import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, type Envelope, LIVE_TIMEOUT, reportedBoxes, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { choose, confirmOk, rows, signedIn } from '../lib/page.js';
import { ADMIN_USER, type RunningServer, startServer } from '../lib/server.js';

/**
 * Sub-accounts end to end on the demo mine (DEMO=1): the master creates an operator for one of its
 * two mines through the page; the operator signs in and sees only that mine, no sub-account menu
 * (the route refuses it), no FBOX management, and can restart a miner, acknowledged by the
 * simulator's gateway; every step shows in the master's operation log.
 */

let server: RunningServer;
let browser: Browser;
let api: Api;
let demoAreaId = 0;
const fboxIds: number[] = [];

const OPERATOR = { username: 'op_e2e', password: 'op-e2e-pass1', nickname: 'Night shift' };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  api = await signInApi(server);
  demoAreaId = await demoMineId(api);
  // A second mine the operator must not see.
  await api.post('/index/fbox.area/create', { area_name: 'Second Mine', electricity_price: 0.06 });
  fboxIds.push(...(await reportedBoxes(server, api, demoAreaId)).map((box) => box.id));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('sub-accounts', () => {
  it('the master creates an operator for one mine through the page', async () => {
    const { page, context, errors } = await signedIn(browser, server);
    await page.getByTestId('sidebar').getByText('Sub-accounts').click();
    await page.waitForURL(/\/set\/subAccount/);
    await page.getByTestId('sub-account-page').waitFor();

    await page.getByTestId('sub-create').click();
    const form = page.getByTestId('sub-account-form');
    await form.waitFor();
    // The keyboard-friendly form: the username has the focus; an empty save names what is missing.
    await page.getByTestId('sub-account-save').click();
    await form.getByText('Username is required').waitFor();

    await page.locator('#subAccount_username').fill(OPERATOR.username);
    await page.locator('#subAccount_password').fill(OPERATOR.password);
    await page.locator('#subAccount_nickname').fill(OPERATOR.nickname);
    await choose(page, form.getByTestId('sub-mobile-code'), '44', { search: true });
    await page.locator('#subAccount_mobileNumber').fill('7700900123');
    await page.locator('#subAccount_email').fill('night@example.com');
    await choose(page, form.getByTestId('sub-areas'), 'Demo Mine', { search: true });
    // Close the multi-select's list (Escape would close the dialog).
    await page.locator('.ant-modal-title').click();
    await form.getByTestId('sub-rules').getByText('Miner control', { exact: false }).click();
    await page.locator('#subAccount_email').press('Enter');
    await form.waitFor({ state: 'detached' });

    const table = page.getByTestId('sub-account-table');
    const row = rows(table).filter({ hasText: OPERATOR.username });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain(OPERATOR.nickname);
    expect(text).toContain('+44 7700900123');
    expect(text).toContain('night@example.com');
    expect(text).toContain('Operator');
    expect(text).toContain('Demo Mine');
    expect(text).not.toContain('Second Mine');
    expect(text).toContain('Miner control');

    // The same username again: the refusal is said on the username field, not only in a toast.
    await page.getByTestId('sub-create').click();
    await form.waitFor();
    await page.locator('#subAccount_username').fill(OPERATOR.username);
    await page.locator('#subAccount_password').fill(OPERATOR.password);
    await page.locator('#subAccount_nickname').fill('Second');
    await choose(page, form.getByTestId('sub-mobile-code'), '44', { search: true });
    await page.locator('#subAccount_mobileNumber').fill('7700900999');
    await page.locator('#subAccount_email').fill('second@example.com');
    await choose(page, form.getByTestId('sub-areas'), 'Demo Mine', { search: true });
    await page.locator('.ant-modal-title').click();
    await page.getByTestId('sub-account-save').click();
    await page
      .locator('#subAccount_username_help')
      .getByText('This username is not available; choose another')
      .waitFor();
    await page.getByTestId('sub-account-form').getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the operator sees only its mine, no sub-accounts, no FBOX editing, and restarts a miner', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'en', OPERATOR);

    // Only the managed mine in the area selector.
    // The dropdown can close again while the first page still settles (seen on a loaded machine):
    // the shell is waited for, and the dropdown opened again until its options are read.
    await page.getByTestId('sidebar').getByText('Home').first().waitFor();
    const options = page.locator('.ant-select-dropdown:visible .ant-select-item-option');
    await expect
      .poll(
        async () => {
          if ((await options.count()) === 0) await page.getByTestId('area-select').click();
          return options.allInnerTexts();
        },
        { interval: 500, timeout: 10_000 },
      )
      .toEqual(['Demo Mine']);
    await page.keyboard.press('Escape');

    // No sub-account menu, and the route refuses it.
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByText('Home').first().waitFor();
    expect(await sidebar.getByText('Sub-accounts').count()).toBe(0);
    await page.goto(`${server.url}/set/subAccount`);
    await page.waitForURL(/\/401$/);

    // An FBOX detail without edit, settings, transfer, delete or meter reset.
    await page.goto(`${server.url}/device/boxDetail?id=${fboxIds[0]}`);
    await page.getByTestId('box-name').waitFor();
    for (const id of [
      'box-edit',
      'box-settings',
      'box-transfer',
      'box-delete',
      'meter-reset-1',
      'mqtt-regenerate',
    ])
      expect(await page.getByTestId(id).count(), id).toBe(0);
    await page.goto(`${server.url}/device/boxList`);
    await page.getByTestId('box-list-table').waitFor();
    expect(await page.getByTestId('box-create').count()).toBe(0);

    // A miner restart, acknowledged by the gateway; the delete and pool actions are not offered.
    await page.goto(`${server.url}/device/machineList?status=online`);
    const miners = page.getByTestId('miner-list-table');
    await expect.poll(() => rows(miners).count(), { timeout: LIVE_TIMEOUT }).toBeGreaterThan(0);
    expect(await page.getByTestId('miner-bulk-delete').count()).toBe(0);
    expect(await page.getByTestId('miner-bulk-pool').count()).toBe(0);
    await rows(miners).first().locator('input[type="checkbox"]').check();
    await page.getByTestId('miner-bulk-restart').click();
    await confirmOk(page.getByTestId('bulk-confirm-ok'));
    const outcome = page.getByTestId('command-outcomes').locator('[data-testid="command-outcome"]');
    await outcome.first().waitFor();
    await expect
      .poll(() => outcome.evaluateAll((els) => els.map((el) => el.getAttribute('data-status'))), {
        timeout: LIVE_TIMEOUT,
      })
      .toEqual(['acknowledged']);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('every step appears in the operation log', async () => {
    const { page, context, errors } = await signedIn(browser, server);
    await page.goto(`${server.url}/logs/operationLog`);
    const table = page.getByTestId('oplog-table');
    await rows(table).first().waitFor();
    // Newest first: the operator's restart, its sign-in, the master creating it.
    const lines = await rows(table).allInnerTexts();
    const find = (who: string, action: string) =>
      lines.findIndex((line) => line.includes(who) && line.includes(action) && line.includes('Success'));
    const restart = find(OPERATOR.username, 'Restart miners');
    const signIn = find(OPERATOR.username, 'Sign in');
    const created = find(ADMIN_USER, 'Add sub-account');
    expect(restart, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(signIn).toBeGreaterThan(restart);
    expect(created).toBeGreaterThan(signIn);
    expect(lines[created]).toContain(OPERATOR.username);
    // The password the master typed is masked in the recorded parameters.
    const createdRow = rows(table).nth(created);
    await createdRow.getByTestId('oplog-params-toggle').click();
    const params = await createdRow.locator('pre').innerText();
    expect(params).toContain('"password": "***"');
    expect(params).not.toContain(OPERATOR.password);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('disabling the operator signs it out at once', async () => {
    const subs = await api.get<{ items: { id: number; username: string }[] }>('/index/fbox.user/index');
    const id = subs.items.find((s) => s.username === OPERATOR.username)?.id ?? 0;
    const operator = await signInApi(server, OPERATOR);
    await api.post('/index/fbox.user/edit', { id, status: 'disabled' });
    const res = await fetch(`${server.url}/index/fbox.area/index`, {
      headers: { logintoken: operator.token },
    });
    expect(((await res.json()) as Envelope<unknown>).code).toBe(-9000);
  });
});
