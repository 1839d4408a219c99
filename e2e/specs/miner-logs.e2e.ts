import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type ZipFile } from 'yauzl';
import { type Api, demoMineId, type FboxRow, type ListPage, reportedBoxes, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import {
  choose,
  clickUntilShown,
  confirmOk,
  expectTranslated,
  numberIn,
  row,
  rows,
  shoot,
  signedIn,
} from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * Miner log export with the demo mine and its simulated gateways: an export of one FBOX for the
 * last hour made in the browser (an empty pick refused on its field first) runs to Finished with
 * its progress on the list, its details list every miner, and its zip holds `export.txt` and the
 * logs; a second export of the whole mine is canceled after a confirmation; the page in Chinese.
 */

const LOG = '/ff-plat-api/api/admin/log/export';

interface ExportRow {
  id: number;
  status: 'processing' | 'finished' | 'canceled';
  total: number;
  done: number;
  failed: number;
}

let server: RunningServer;
let browser: Browser;
let api: Api;
let areaId = 0;
let boxes: FboxRow[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
  boxes = await reportedBoxes(server, api, areaId);
}, 120_000);

afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

const exportsOf = async () => {
  const answer = await api.postJson<ListPage<ExportRow>>(`${LOG}/list`, {
    area_id: areaId,
    page: 1,
    limit: 50,
  });
  return answer.data.items;
};

/** The files of a zip, by path, as text. */
const unzip = (buffer: Buffer): Promise<Map<string, string>> =>
  new Promise((resolve, reject) => {
    fromBuffer(buffer, { lazyEntries: true }, (error, zip?: ZipFile) => {
      if (error || !zip) return reject(error);
      const files = new Map<string, string>();
      zip.on('entry', (entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });

const statusOf = (page: Page, id: number) =>
  row(page.getByTestId('miner-logs-table'), id).getByTestId('miner-logs-status').getAttribute('data-status');

describe('miner log export', () => {
  it('exports the last hour of one FBOX, follows it to Finished, lists its miners and downloads the zip', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'en');
    await page.goto(`${server.url}/logs/minerLogs`);
    const empty = page.getByTestId('miner-logs-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toContain('No log exports yet');

    await empty.getByTestId('miner-logs-create').click();
    const form = page.getByTestId('miner-logs-form');
    await form.waitFor();
    // Nothing picked: refused on its field, nothing sent.
    const idsError = form.locator('.ant-form-item-explain-error').first();
    await clickUntilShown(page.getByTestId('miner-logs-form-start'), idsError);
    expect(await idsError.innerText()).toBe('Please choose FBOXes');
    await shoot(page, 'miner-logs-form-error-en');
    expect(await exportsOf()).toEqual([]);

    const box = boxes[0]!;
    await choose(page, form.getByTestId('miner-logs-ids-fbox'), box.name);
    // A multiple select stays open after a choice: close it beside it.
    await page.locator('.ant-modal-title').click();
    await page.locator('.ant-select-dropdown:visible').waitFor({ state: 'hidden' });
    await form.getByTestId('miner-logs-form-window').first().click();
    await page
      .locator('.ant-picker-dropdown:visible .ant-picker-presets li')
      .filter({ hasText: 'Last 1 hour' })
      .click();
    await page.getByTestId('miner-logs-form-start').click();
    await form.waitFor({ state: 'detached' });

    const table = page.getByTestId('miner-logs-table');
    await expect.poll(() => rows(table).count()).toBe(1);
    const [made] = await exportsOf();
    expect(made!.total).toBeGreaterThan(0);
    const line = row(table, made!.id);
    expect(await line.innerText()).toContain(box.name);
    // Live: the row follows the job to Finished without a reload.
    await expect.poll(() => statusOf(page, made!.id), { timeout: 120_000, interval: 500 }).toBe('finished');
    const [finished] = await exportsOf();
    expect(finished!.done + finished!.failed).toBe(finished!.total);
    expect(finished!.done).toBeGreaterThan(0);
    expect(await line.innerText()).toContain('Finished');

    // Details: every miner with its outcome.
    await line.getByTestId(`miner-logs-details-${made!.id}`).click();
    const drawer = page.getByTestId('miner-logs-items');
    await drawer.waitFor();
    const itemRows = rows(drawer.getByTestId('miner-logs-items-table'));
    await expect.poll(() => itemRows.count()).toBe(Math.min(finished!.total, 20));
    expect(
      await drawer.locator('[data-testid="miner-logs-item-state"][data-state="done"]').count(),
    ).toBeGreaterThan(0);
    await shoot(page, 'miner-logs-details-en');

    // The zip: export.txt and a log per miner whose log arrived.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      drawer.getByTestId('miner-logs-items-download').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`miner-logs-${made!.id}.zip`);
    const zip = readFileSync((await download.path())!);
    expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
    const files = await unzip(zip);
    expect(files.get('export.txt')).toContain(`Miner log export ${made!.id}`);
    expect([...files.keys()].filter((name) => name.endsWith('.log'))).toHaveLength(finished!.done);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });

    // A second export, of every miner of the mine (an empty miner filter), is stopped after a confirmation.
    await page.getByTestId('miner-logs-create').click();
    await form.waitFor();
    await form.getByTestId('miner-logs-form-scope').getByText('Miner filter').click();
    const matching = form.getByTestId('miner-logs-filter-count');
    await expect.poll(() => matching.innerText()).toMatch(/^\d+ miners match now$/);
    const mineMiners = numberIn(await matching.innerText());
    await form.getByTestId('miner-logs-form-window').first().click();
    await page
      .locator('.ant-picker-dropdown:visible .ant-picker-presets li')
      .filter({ hasText: 'Last 6 hours' })
      .click();
    await page.getByTestId('miner-logs-form-start').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => rows(table).count()).toBe(2);
    const [second] = await exportsOf();
    expect(second!.id).not.toBe(made!.id);
    expect(second!.total).toBe(mineMiners);
    const running = row(table, second!.id);
    await running.getByTestId('miner-logs-progress').waitFor({ timeout: 10_000 });
    await shoot(page, 'miner-logs-list-en');
    await running.getByTestId(`miner-logs-cancel-${second!.id}`).click();
    await confirmOk(page.getByTestId('miner-logs-cancel-ok'));
    await expect.poll(() => statusOf(page, second!.id), { timeout: 10_000 }).toBe('canceled');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the exports in Chinese', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'zh');
    await page.goto(`${server.url}/logs/minerLogs`);
    const table = page.getByTestId('miner-logs-table');
    await expect.poll(() => rows(table).count()).toBe(2);
    const text = await table.innerText();
    expect(text).toContain('已完成');
    expect(text).toContain('已取消');
    await expectTranslated(page.getByTestId('miner-logs-page'), ['minerLogs', 'app', 'field', 'common']);
    await page.getByTestId('miner-logs-create').click();
    await page.getByTestId('miner-logs-form').waitFor();
    expect(await page.getByTestId('miner-logs-form').innerText()).toContain('选择矿机方式');
    // The dialog zooms in: its picture once it stands.
    await page.waitForTimeout(500);
    await shoot(page, 'miner-logs-form-zh');
    await expectTranslated(page.getByTestId('miner-logs-form'), ['minerLogs', 'field', 'common', 'rule']);
    await page.keyboard.press('Escape');
    await page.getByTestId('miner-logs-form').waitFor({ state: 'detached' });
    await shoot(page, 'miner-logs-list-zh');
    expect(errors).toEqual([]);
    await context.close();
  });
});
