import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../lib/browser.js';
import { type RunningServer, startServer } from '../lib/server.js';
import { loginThroughForm } from '../lib/session.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('console shell', () => {
  it('switches the language of the menu and the page, and keeps it after a reload', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page);
    const sidebar = page.getByTestId('sidebar');
    await sidebar.getByText('Home').first().waitFor();

    await page.getByTestId('lang-switch').click();
    const zh = page.getByTestId('lang-zh');
    if (await zh.isVisible().catch(() => false)) await zh.click();
    await sidebar.getByText('首页').first().waitFor();
    await page.getByTestId('home-page').getByText('该矿场').first().waitFor();

    await page.reload();
    await sidebar.getByText('首页').first().waitFor();
    expect(await page.title()).toContain('FBOX Cloud System');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the settings drawer choices after a reload', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page);
    await page.getByTestId('tags-view').waitFor();

    await page.getByTestId('settings-trigger').click();
    await page.getByTestId('setting-tagsView').click();
    await page.getByTestId('tags-view').waitFor({ state: 'detached' });

    await page.reload();
    await page.getByTestId('home-page').waitFor();
    expect(await page.getByTestId('tags-view').count()).toBe(0);
    await context.close();
  });

  it('opens the sidebar group of the page reached by its address', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/login?redirect=${encodeURIComponent('/logs/operationLog')}`);
    await loginThroughForm(page, { expectPath: /\/logs\/operationLog/ });
    const item = page.getByTestId('sidebar').getByRole('menuitem', { name: 'Operation log' });
    await item.waitFor();
    expect(await item.getAttribute('class')).toContain('ant-menu-item-selected');
    await context.close();
  });

  it('closes the sidebar at 800 px width, and opens it again at 1400 px', async () => {
    const { page, context } = await openPage(browser, { width: 800 });
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page);
    await page.getByTestId('home-page').waitFor();
    const sidebar = page.getByTestId('sidebar');
    const collapsed = await sidebar.getAttribute('data-collapsed').catch(() => null);
    const visible = await sidebar.isVisible().catch(() => false);
    expect(collapsed === 'true' || !visible).toBe(true);
    // Wide again: the sidebar is back as the user left it (open).
    await page.setViewportSize({ width: 1400, height: 900 });
    await expect.poll(() => sidebar.getAttribute('data-collapsed')).toBe('false');
    await context.close();
  });

  it('renders the open pages in both languages without console errors', async () => {
    for (const language of ['en', 'zh']) {
      const { page, context, errors } = await openPage(browser);
      await context.addCookies([{ name: 'language', value: language, url: server.url }]);
      for (const path of ['/login', '/error/404', '/401']) {
        await page.goto(`${server.url}${path}`);
        await page.waitForLoadState('networkidle');
      }
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
