import { hostname } from 'node:os';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_TIMEOUT } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { expectTranslated, type Language, shoot, signedIn } from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * Manage Mines end to end on the built server with its demo mine (DEMO=1): the in-process simulator's
 * gateways connect to the embedded broker like real ones, so their client key records are real.
 */

let server: RunningServer;
let browser: Browser;

const rowOf = (page: Page, name: string): Locator =>
  page.getByTestId('mine-table').locator('tbody tr', { hasText: name });

const areaOptions = async (page: Page): Promise<string[]> => {
  await page.getByTestId('area-select').click();
  const options = await page.locator('.ant-select-dropdown .ant-select-item-option').allInnerTexts();
  await page.keyboard.press('Escape');
  return options;
};

/** Signed in, on Manage Mines. */
const onMines = async (language: Language) => {
  const opened = await signedIn(browser, server, language);
  await opened.page.goto(`${server.url}/set/mines`);
  await rowOf(opened.page, 'Demo Mine').waitFor();
  return opened;
};

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('Manage Mines', () => {
  it('creates a mine with a price, refuses a bad one, edits it, and deletes it after naming what goes', async () => {
    const { page, context, errors } = await onMines('en');
    const form = page.getByTestId('mine-form');
    const save = page.locator('.ant-modal-footer').getByRole('button', { name: 'Save' });

    await page.getByTestId('mine-create').click();
    await form.locator('#mineForm_area_name').fill('E2E Mine');
    await form.locator('#mineForm_electricity_price').fill('cheap');
    await save.click();
    await form.getByText('Electricity price must be a valid number').waitFor();
    await shoot(page, 'mines-form-en');
    await form.locator('#mineForm_electricity_price').fill('0');
    await form.getByText('Electricity price must be a number greater than 0').waitFor();
    await form.locator('#mineForm_electricity_price').fill('0.06');
    await form.locator('#mineForm_contact').fill('Ana +1 555 0100');
    // Keyboard: Enter in a field submits the dialog.
    await form.locator('#mineForm_contact').press('Enter');
    const created = rowOf(page, 'E2E Mine');
    await created.waitFor();
    expect(await created.innerText()).toContain('0.06 / kWh');
    expect(await created.innerText()).toContain('Ana +1 555 0100');
    // The area selector learned about it.
    await expect.poll(() => areaOptions(page)).toContain('E2E Mine');

    // The Agent Key shows masked, then in full.
    expect(await created.getByTestId('agent-key-value').innerText()).not.toMatch(/[0-9a-f]{32}/);
    await created.getByTestId('agent-key-toggle').click();
    expect(await created.getByTestId('agent-key-value').innerText()).toMatch(/^[0-9a-f]{32}$/);
    await shoot(page, 'mines-key-en');
    // At 1440 px the revealed key leaves its regenerate button in view, clear of the fixed Actions column.
    await page.setViewportSize({ width: 1440, height: 900 });
    const regenerate = await created.getByTestId('agent-key-regenerate').boundingBox();
    const actions = await created.locator('td').last().boundingBox();
    expect(regenerate && actions && regenerate.x + regenerate.width <= actions.x).toBe(true);

    // Edit: the price and the comment.
    await created.getByRole('button', { name: 'Edit' }).click();
    await form.locator('#mineForm_electricity_price').fill('0.075');
    await form.locator('#mineForm_comment').fill('Hydro site by the river');
    await save.click();
    await expect.poll(() => created.innerText()).toContain('0.075 / kWh');
    expect(await created.innerText()).toContain('Hydro site by the river');

    // Delete: the confirmation names what goes.
    await created.getByRole('button', { name: 'Delete' }).click();
    const summary = page.getByTestId('mine-delete-summary');
    await summary.waitFor();
    expect(await summary.innerText()).toContain('0 FBOX, 0 tanks and 0 miners');
    await page.locator('.ant-modal-confirm-btns').getByRole('button', { name: 'Delete' }).click();
    await created.waitFor({ state: 'detached' });
    await expect.poll(() => areaOptions(page)).not.toContain('E2E Mine');

    // The demo mine cannot be deleted by accident: its confirmation names its devices.
    await rowOf(page, 'Demo Mine').getByRole('button', { name: 'Delete' }).click();
    expect(await page.getByTestId('mine-delete-summary').innerText()).toMatch(/[1-9]\d* FBOX/);
    await page.locator('.ant-modal-confirm-btns').getByRole('button', { name: 'Cancel' }).click();
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the demo gateways' client key records in both languages", async () => {
    for (const language of ['en', 'zh'] as const) {
      const { page, context, errors } = await onMines(language);
      await rowOf(page, 'Demo Mine').locator('[data-testid^="mine-clients-"]').click();
      const drawer = page.getByTestId('client-records');
      const gateways = drawer.locator('tbody tr[data-row-key]');
      await expect.poll(() => gateways.count(), { timeout: LIVE_TIMEOUT, interval: 500 }).toBeGreaterThan(0);
      const online = language === 'en' ? 'Online' : '在线';
      await expect
        .poll(async () => (await gateways.first().innerText()).includes(hostname()), {
          timeout: LIVE_TIMEOUT,
        })
        .toBe(true);
      const first = await gateways.first().innerText();
      expect(first).toContain(online);
      expect(first).toMatch(/gw-fb[0-9a-f]{12}/);
      expect(first).toContain('127.0.0.1');
      expect(first).toContain('fbox-simulator');
      await expectTranslated(page.locator('body'), ['app', 'common', 'mines', 'field', 'rule', 'api']);
      await shoot(page, `mines-clients-${language}`);
      await drawer.locator('.ant-drawer-close').click();
      await drawer.waitFor({ state: 'hidden' });
      await shoot(page, `mines-${language}`);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
