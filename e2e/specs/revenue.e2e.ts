import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, eventually, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { downloadFromMenu, expectTranslated, rows, shoot, signedIn } from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * Revenue end to end on the demo mine: the simulator's pool (Braiins Pool's API) credits the demo
 * subaccount for past days, the pool sync reads them at start, and the page shows them as
 * pool-reported in both languages; a range change; the daily table downloaded and checked against
 * the API.
 */

interface RevenueDay {
  day: string;
  source: 'pool' | 'estimated' | 'none';
  coin: number | null;
  fiat: number | null;
}
interface Revenue {
  days: RevenueDay[];
  time_zone: string;
}

let server: RunningServer;
let browser: Browser;
let api: Api;
let areaId = 0;

const revenueOf = (from: string, to: string) =>
  api.get<Revenue>('/index/fbox.statistic/revenue', { area_id: areaId, from_day: from, to_day: to });

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('revenue', () => {
  it('shows the demo pool earnings in both languages, changes the range and exports the table', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'en');
    await page.goto(`${server.url}/statistic/revenue`);
    const rangeText = page.getByTestId('revenue-range-text');
    await rangeText.waitFor();
    const [, from30, to30] =
      /(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(await rangeText.innerText()) ?? [];
    // The pool sync reads the demo pool in the background once the server runs.
    await eventually(
      server,
      'pool-reported days of the demo mine',
      async () => {
        const revenue = await revenueOf(from30!, to30!);
        return revenue.days.some((d) => d.source === 'pool') ? revenue : undefined;
      },
      120_000,
    );
    await page.reload();
    const table = page.getByTestId('revenue-table');
    await table.getByText('Pool-reported').first().waitFor();
    expect(await page.getByTestId('revenue-kpi-coin').innerText()).toMatch(/\d\.\d{8} BTC/);
    expect(await page.getByTestId('revenue-kpi-fiat').innerText()).toMatch(/USD/);
    await page.getByTestId('revenue-daily-chart').waitFor();
    await page.getByText('Pool-side vs miner-side hashrate').waitFor();
    await expectTranslated(page.locator('body'), ['revenue']);
    await shoot(page, 'revenue-en');

    // Seven days: seven rows, ending today.
    await page.getByTestId('revenue-preset').getByText('7 days').click();
    await expect.poll(() => rows(table).count()).toBe(7);
    const [, from, to] = /(\d{4}-\d{2}-\d{2}) to (\d{4}-\d{2}-\d{2})/.exec(await rangeText.innerText()) ?? [];
    expect(to).toBe(to30);

    // The file holds what the API answers for the same days.
    const file = await downloadFromMenu(page, page.getByTestId('revenue-export'), 'CSV');
    const lines = readFileSync(await file.path(), 'utf8')
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('Earned (BTC)');
    const revenue = await revenueOf(from!, to!);
    const label = { pool: 'Pool-reported', estimated: 'Estimated', none: 'No data' };
    expect(lines.slice(1).map((l) => l.split(','))).toEqual(
      revenue.days.map((d) => [
        d.day,
        label[d.source],
        ...lines[0]!
          .split(',')
          .slice(2)
          .map(() => expect.any(String)),
      ]),
    );
    for (const [i, d] of revenue.days.entries()) {
      const cells = lines[i + 1]!.split(',');
      expect(cells[4], d.day).toBe(d.coin === null ? '' : String(d.coin));
      expect(cells[6], d.day).toBe(d.fiat === null ? '' : String(d.fiat));
    }
    expect(errors).toEqual([]);
    await context.close();

    const zh = await signedIn(browser, server, 'zh');
    await zh.page.goto(`${server.url}/statistic/revenue`);
    await zh.page.getByTestId('revenue-table').getByText('矿池上报').first().waitFor();
    await zh.page.getByText('矿池侧与矿机侧算力').waitFor();
    await expectTranslated(zh.page.locator('body'), ['revenue']);
    await shoot(zh.page, 'revenue-zh');
    expect(zh.errors).toEqual([]);
    await zh.context.close();
  });
});
