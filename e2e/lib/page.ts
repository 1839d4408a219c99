import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Download, Locator, Page } from 'playwright-core';
import { expect, onTestFailed } from 'vitest';
import { openPage, type PageWithErrors } from './browser.js';
import type { RunningServer } from './server.js';
import { loginThroughForm } from './session.js';

export type Language = 'en' | 'zh';

/**
 * A fresh page in `language`, signed in through the login form (the admin unless told otherwise).
 * `prepare` runs on the context before the first page loads (routes for outside sites…). A failing
 * test leaves a screenshot of where its page stood, named in the output.
 */
export const signedIn = async (
  browser: Browser,
  server: RunningServer,
  language: Language = 'en',
  options: {
    username?: string;
    password?: string;
    prepare?: (context: BrowserContext) => Promise<unknown>;
  } = {},
): Promise<PageWithErrors> => {
  const opened = await openPage(browser, { locale: language === 'zh' ? 'zh-CN' : 'en-US' });
  await opened.context.addCookies([{ name: 'language', value: language, url: server.url }]);
  await options.prepare?.(opened.context);
  onTestFailed(async () => {
    const path = join(tmpdir(), `e2e-failed-${Date.now()}.png`);
    await opened.page.screenshot({ path }).catch(() => undefined);
    console.log(`screenshot of the failed test: ${path}`);
  });
  await opened.page.goto(`${server.url}/login`);
  await loginThroughForm(opened.page, { username: options.username, password: options.password });
  return opened;
};

/** Rows of an antd Table (by their `data-row-key`), one row by its key, or those holding a text. */
export const rows = (table: Locator) => table.locator('tbody tr[data-row-key]');
export const row = (table: Locator, key: number | string) => table.locator(`tbody tr[data-row-key="${key}"]`);
export const rowWith = (table: Locator, text: string) => rows(table).filter({ hasText: text });

/**
 * Opens an antd Select and clicks the first option holding `text`; `search` types it first, for
 * long lists whose option would otherwise not be rendered.
 */
export const choose = async (
  page: Page,
  select: Locator,
  text: string,
  options: { search?: boolean } = {},
) => {
  const shown = async () => (await select.innerText()).includes(text);
  for (let attempt = 1; ; attempt++) {
    await select.click();
    if (options.search) await page.keyboard.type(text);
    await page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: text })
      .first()
      .click();
    // On a loaded machine the click can land while the dropdown is still opening and be lost:
    // the choice then never shows in the select, so it is made again (never twice once shown, which
    // would take it back in a multiple select).
    for (const deadline = Date.now() + 5000; Date.now() < deadline; await page.waitForTimeout(100))
      if (await shown()) return;
    if (attempt === 3) throw new Error(`"${text}" was clicked 3 times and never shown as chosen`);
    await page.keyboard.press('Escape');
  }
};

/**
 * Clicks `button` until `gone` leaves the page (a dialog closing once its action ran). On a loaded
 * machine a click can land while the dialog is still zooming in, or while a field's error below
 * the button is collapsing, and be lost: it is tried again, at most three times. A click that did
 * land may take a while to close the dialog (its action runs first): a retry that finds the dialog
 * gone, or sees it go while waiting to click, is done. A button whose action is running shows as
 * loading and ignores a second click.
 */
export const clickUntilGone = async (button: Locator, gone: Locator = button) => {
  const isGone = async () => (await gone.count()) === 0;
  for (let attempt = 1; ; attempt++) {
    if (attempt > 1 && (await isGone())) return;
    try {
      await button.click({ timeout: 10_000 });
    } catch (error) {
      if (await isGone()) return;
      throw error;
    }
    try {
      await gone.waitFor({ state: 'detached', timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
};

/**
 * Clicks `button` until `shown` appears: a click landing while its dialog still zooms in is lost on
 * a loaded machine (CI: a form's Start clicked as its drawer opened showed no field error for 30 s).
 * Tried at most three times, 10 s each.
 */
export const clickUntilShown = async (button: Locator, shown: Locator) => {
  for (let attempt = 1; ; attempt++) {
    await button.click({ timeout: 10_000 });
    try {
      await shown.waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
};

/**
 * Opens a hover menu (`trigger`), clicks its item named `item` and resolves with the download it
 * starts, the menu closed again. A click that lands while the menu opens or closes starts nothing
 * (CI: a 30 s wait for a download that never came), and one the header takes is lost: it is
 * tried again, at most three times, 15 s each.
 */
export const downloadFromMenu = async (page: Page, trigger: Locator, item: string): Promise<Download> => {
  for (let attempt = 1; ; attempt++) {
    const started = page.waitForEvent('download', { timeout: 15_000 });
    started.catch(() => undefined);
    // Mid-screen: a trigger scrolled to the top edge opens its menu under the sticky header,
    // which then takes the click (CI).
    await trigger.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await trigger.hover();
    const entry = page.getByRole('menuitem', { name: item });
    await entry.waitFor();
    const clicked = await entry.click({ timeout: 5000 }).then(
      () => true,
      (error: unknown) => {
        if (attempt === 3) throw error;
        return false;
      },
    );
    const download = clicked
      ? await started.catch((error: unknown) => {
          if (attempt === 3) throw error;
          return undefined;
        })
      : undefined;
    // The menu closes before the next call (or attempt) opens it again.
    await page.mouse.move(0, 0);
    await entry.waitFor({ state: 'hidden' });
    if (download) return download;
  }
};

/** Clicks a confirmation's OK and waits for the confirmation to go (it stays while its action runs). */
export const confirmOk = (ok: Locator) => clickUntilGone(ok);

/**
 * Fails when the text under `root` shows a translation key of these namespaces (`device.miner.x`)
 * or a raw interpolation (`{{count}}`): a missing or misspelled text.
 */
export const expectTranslated = async (root: Locator, namespaces: readonly string[]) => {
  const key = new RegExp(`\\b(?:${namespaces.join('|')})\\.[a-z][A-Za-z]*(?:\\.[A-Za-z]+)?\\b|\\{\\{`);
  const text = await root.innerText();
  expect(text.match(key)?.[0] ?? null).toBeNull();
};

/** The first number in a text such as "66.70 PH/s" or "1,234"; NaN when there is none (a dash). */
export const numberIn = (text: string): number => {
  const match = text.replace(/,/g, '').match(/-?\d+(?:\.\d+)?/);
  return match ? Number(match[0]) : Number.NaN;
};

/** Keeps a full-page screenshot in SCREENSHOT_DIR when it is set (to look at the pages). */
export const shoot = async (page: Page, name: string) => {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage: true });
};

/** Whether a full-screen page shows everything without scrolling (evaluated in the page as text: e2e has no DOM types). */
export const fitsTheScreen = (page: Page) =>
  page.evaluate<boolean>(
    'document.documentElement.scrollWidth <= innerWidth && document.documentElement.scrollHeight <= innerHeight',
  );
