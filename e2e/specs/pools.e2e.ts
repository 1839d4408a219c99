import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { clickUntilGone, signedIn } from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * Mining pools end to end: observer links (add, a bad address refused, open in a new tab, delete)
 * and a pool subaccount whose API secret goes in and never comes back to the browser.
 */

let server: RunningServer;
let browser: Browser;
let api: Api;
let areaId = 0;

/** A pool's observer page, served by the browser context instead of the internet. */
const POOL_URL = 'https://pool.example.test/observer/site-a?coin=BTC';
const SECRET = 'e2e-secret-7f3a9c2b1d';
const API_KEY = 'e2e-key-51c0ffee';

/** Serves the pool's observer page in the browser context instead of the internet. */
const fakePool = (context: BrowserContext) =>
  context.route('https://pool.example.test/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>pool</title><script>document.title = "opener:" + (window.opener === null)</script>',
    }),
  );

/** The confirm button of the open pop-up confirmation. */
const confirmDelete = (page: Page) => page.locator('.ant-popconfirm .ant-btn-dangerous').click();

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('mining pools', () => {
  it('adds an observer link, refuses a bad address, opens it in a new tab and deletes it', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'en', { prepare: fakePool });
    await page.goto(`${server.url}/set/account`);
    const table = page.getByTestId('observer-link-table');
    await table.waitFor();

    await page.getByTestId('observer-link-create').click();
    const form = page.getByTestId('observer-link-form');
    await form.locator('#observerLinkForm_pool').fill('F2Pool');
    await form.locator('#observerLinkForm_subaccount').fill('site-a');
    await form.locator('#observerLinkForm_coin').fill('BTC');
    await form.locator('#observerLinkForm_link').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Save' }).click();
    await form.getByText('Link must be an http:// or https:// address').waitFor();
    // The server refuses it too, whoever asks.
    const refused = await api.postJson('/index/fbox.pool/create', {
      area_id: areaId,
      pool: 'F2Pool',
      subaccount: 'site-a',
      coin: 'BTC',
      link: 'javascript:alert(1)',
    });
    expect(refused.code).toBe(-2);

    await form.locator('#observerLinkForm_link').fill(POOL_URL);
    await form.locator('.ant-form-item-explain-error').first().waitFor({ state: 'detached' });
    await clickUntilGone(page.getByRole('button', { name: 'Save' }), form);
    const link = table.getByRole('link', { name: POOL_URL });
    await link.waitFor();
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');

    const [popup] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await popup.waitForLoadState();
    expect(popup.url()).toBe(POOL_URL);
    await expect.poll(() => popup.title()).toBe('opener:true');
    await popup.close();
    expect(page.url()).toContain('/set/account');

    const row = table.locator('tbody tr[data-row-key]');
    await expect.poll(() => row.count()).toBe(1);
    await row.first().getByRole('button', { name: 'Delete' }).click();
    await confirmDelete(page);
    await expect.poll(() => row.count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('saves a pool subaccount with a secret and never shows the secret back', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'en', { prepare: fakePool });
    const answers: string[] = [];
    page.on('response', async (response) => {
      if (response.url().includes('/admin/area/pool/')) answers.push(await response.text());
    });
    await page.goto(`${server.url}/set/poolSubaccount`);
    const table = page.getByTestId('pool-subaccount-table');
    await table.waitFor();

    await page.getByTestId('pool-subaccount-create').click();
    const form = page.getByTestId('pool-subaccount-form');
    await form.locator('#poolSubaccountForm_pool').fill('AntPool');
    await form.locator('#poolSubaccountForm_subaccount').fill('site-b');
    await form.locator('#poolSubaccountForm_coin').fill('BTC');
    await form.locator('#poolSubaccountForm_observer_url').fill('https://pool.example.test/observer/site-b');
    await page.getByTestId('pool-subaccount-api_key').fill(API_KEY);
    await page.getByTestId('pool-subaccount-api_secret').fill(SECRET);
    // A password input: the secret is not readable on screen while typed.
    expect(await page.getByTestId('pool-subaccount-api_secret').getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });

    const row = table.locator('tbody tr[data-row-key]').first();
    await row.getByRole('cell', { name: 'site-b', exact: true }).waitFor();
    const id = await row.getAttribute('data-row-key');
    await expect.poll(() => page.getByTestId(`pool-subaccount-secret-${id}`).innerText()).toBe('Stored');
    expect(await page.getByTestId(`pool-subaccount-key-${id}`).innerText()).toBe('Stored');

    // Editing shows that a secret is stored, not the secret.
    await page.getByTestId(`pool-subaccount-edit-${id}`).click();
    const secretInput = page.getByTestId('pool-subaccount-api_secret');
    await secretInput.waitFor();
    expect(await secretInput.inputValue()).toBe('');
    expect(await secretInput.getAttribute('placeholder')).toBe('Stored — leave empty to keep');
    await page.getByRole('button', { name: 'Cancel' }).click();

    await page.reload();
    await table.locator('tbody tr[data-row-key]').first().waitFor();
    const html = await page.content();
    expect(html).not.toContain(SECRET);
    expect(html).not.toContain(API_KEY);
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) {
      expect(answer).not.toContain(SECRET);
      expect(answer).not.toContain(API_KEY);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows both pool pages in Chinese', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'zh', { prepare: fakePool });
    await page.goto(`${server.url}/set/account`);
    await page.getByTestId('observer-link-create').getByText('添加观察者链接').waitFor();
    await page.goto(`${server.url}/set/poolSubaccount`);
    await page.getByTestId('pool-subaccount-table').getByText('矿池').first().waitFor();
    await page.getByText('已保存').first().waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
