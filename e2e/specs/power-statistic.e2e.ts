import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, eventually, reportedBoxes, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { downloadFromMenu, expectTranslated, rows, shoot, signedIn } from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * Power Statistics with the demo mine's live meters: the page in English and Chinese, a range
 * change (today by the hour → this week by the day), and the CSV export compared row by row with
 * the API's answer for the same query.
 */

interface Statistic {
  bucket: 'hour' | 'day' | 'month';
  time_zone: string;
  fboxes: { id: number; name: string }[];
  rows: {
    bucket_ts: number;
    fbox_id: number;
    meter1_kwh: number | null;
    meter2_kwh: number | null;
    energy_kwh: number;
    cost: number;
    peak_kw: number | null;
    j_per_th: number | null;
    resets: number;
  }[];
  total_kwh: number;
}

let server: RunningServer;
let browser: Browser;
let api: Api;
let areaId = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
  await reportedBoxes(server, api, areaId);
}, 120_000);

afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

/** The page's statistic query: the parameters of its next `statistic` call. */
const nextQuery = (page: Page) =>
  page
    .waitForResponse((r) => r.url().includes('/index/fbox.electricity/statistic?'))
    .then((r) => Object.fromEntries(new URL(r.url()).searchParams));

/** The CSV lines the export must hold for an answer, in its zone. */
const expectedLines = (answer: Statistic) => {
  const offset = Number(answer.time_zone.replace('UTC', '')) * 3_600_000;
  const names = new Map(answer.fboxes.map((f) => [f.id, f.name]));
  const cell = (v: number | null) => (v === null ? '' : String(v));
  return answer.rows.map((r) => {
    const local = new Date(r.bucket_ts + offset).toISOString().replace('T', ' ');
    const period = answer.bucket === 'hour' ? local.slice(0, 16) : local.slice(0, 10);
    return [
      period,
      names.get(r.fbox_id),
      cell(r.meter1_kwh),
      cell(r.meter2_kwh),
      cell(r.energy_kwh),
      cell(r.cost),
      cell(r.peak_kw),
      cell(r.j_per_th),
      String(r.resets),
    ].join(',');
  });
};

describe('power statistics', () => {
  it('shows the demo mine’s energy, changes the range and exports exactly the API’s rows', async () => {
    // The demo meters count from their second reading on.
    await eventually(server, 'energy counted for the demo mine', async () => {
      const now = Date.now();
      const answer = await api.get<Statistic>('/index/fbox.electricity/statistic', {
        area_id: areaId,
        from: now - 86_400_000,
        to: now + 3_600_000,
        bucket: 'hour',
      });
      return answer.total_kwh > 0 ? answer : undefined;
    });

    const { page, context, errors } = await signedIn(browser, server, 'en');
    const first = nextQuery(page);
    await page.goto(`${server.url}/statistic/powerStatistic`);
    expect((await first).bucket).toBe('hour');
    const table = page.getByTestId('power-table');
    await expect.poll(() => rows(table).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await page.getByTestId('power-kpi-energy').innerText()).toMatch(/\d+(\.\d+)? (k|M|G)Wh/);
    expect(await rows(table).first().innerText()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:00/);
    await expectTranslated(page.locator('body'), ['power']);
    await page.getByTestId('power-energy-chart').locator('canvas').first().waitFor();
    await shoot(page, 'power-statistic-en');

    // This week, by the day.
    const weekly = nextQuery(page);
    await page.getByTestId('power-range').getByText('This week').click();
    const query = await weekly;
    expect(query.bucket).toBe('day');
    await expect
      .poll(async () => (await rows(table).first().innerText()).split('\t')[0]?.trim(), { timeout: 30_000 })
      .toMatch(/^\d{4}-\d{2}-\d{2}$/);

    // The export of that range, row by row against the API (retried while a live reading lands
    // between the two).
    let compared = false;
    for (let attempt = 0; attempt < 5 && !compared; attempt++) {
      const before = await api.get<Statistic>('/index/fbox.electricity/statistic', query);
      const file = await downloadFromMenu(page, page.getByTestId('power-export'), 'Export CSV');
      const lines = readFileSync((await file.path())!, 'utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      const after = await api.get<Statistic>('/index/fbox.electricity/statistic', query);
      if (JSON.stringify(before.rows) !== JSON.stringify(after.rows)) continue;
      expect(lines[0]).toBe(
        'Period,FBOX,Meter 1 (kWh),Meter 2 (kWh),Energy (kWh),Cost,Peak demand (kW),Efficiency (J/TH),Meter resets',
      );
      expect(lines.slice(1)).toEqual(expectedLines(after));
      expect(after.rows.length).toBeGreaterThan(0);
      compared = true;
    }
    expect(compared).toBe(true);
    expect(errors).toEqual([]);
    await context.close();

    const zh = await signedIn(browser, server, 'zh');
    await zh.page.goto(`${server.url}/statistic/powerStatistic`);
    const zhTable = zh.page.getByTestId('power-table');
    await expect.poll(() => rows(zhTable).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await zh.page.getByTestId('power-statistic').innerText()).toContain('电价历史');
    expect(await zh.page.getByTestId('power-range').innerText()).toContain('本周');
    await expectTranslated(zh.page.locator('body'), ['power']);
    await zh.page.getByTestId('power-energy-chart').locator('canvas').first().waitFor();
    await shoot(zh.page, 'power-statistic-zh');
    expect(zh.errors).toEqual([]);
    await zh.context.close();
  });
});
