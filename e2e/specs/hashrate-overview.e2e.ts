import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, eventually, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { downloadFromMenu, expectTranslated, rows, shoot, signedIn } from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * The Hashrate Overview with the demo mine's data: once the hashrate rollup job (every minute) has
 * rolled up the demo's first reports, the page shows its KPIs, chart, series and worst miners in
 * English and Chinese; a range change asks for the new range; the CSV export holds the rows the
 * API answers for the same query.
 */

let server: RunningServer;
let browser: Browser;
let api: Api;
let areaId = 0;
const hour = 3_600_000;
const day = 24 * hour;

interface Overview {
  time_zone: string;
  from: number;
  to: number;
  kpi: { hashrate: number | null };
  totals: { bucket_ts: number; hashrate: number | null; theoretical: number | null }[];
  series: { key: string; name: string }[];
  rows: { bucket_ts: number; key: string; hashrate: number | null }[];
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
  // The demo reports every 10 s; the job rolls them up within its first minute of data.
  await eventually(
    server,
    'the demo mine’s hashrate rolled up',
    async () => {
      const o = await api.get<Overview>('/index/fbox.statistic/hashrate', {
        area_id: areaId,
        from: Date.now() - 2 * day,
        to: Date.now() + day,
        bucket: 'day',
        split: 'fbox',
      });
      return o.kpi.hashrate !== null && o.kpi.hashrate > 0 && o.series.length === 4 ? o : undefined;
    },
    150_000,
  );
}, 200_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const open = async (page: Page) => {
  await page.goto(`${server.url}/statistic/hashrateOverview`);
  await page.getByTestId('hashrate-overview').waitFor();
  await expect
    .poll(() => rows(page.getByTestId('hashrate-series-table')).count(), { timeout: 20_000 })
    .toBe(4);
};

/** Today of the reader's zone, by the hour: what the "Today" preset asks for. */
const todayQuery = (zone: string) => {
  const offset = Number(zone.replace('UTC', '') || 0) * hour;
  const from = Math.floor((Date.now() + offset) / day) * day - offset;
  return { area_id: areaId, from, to: from + day, bucket: 'hour', split: 'fbox' };
};

describe('hashrate overview', () => {
  it('shows the demo mine in English, changes range and exports the rows the API answers', async () => {
    const { page, errors } = await signedIn(browser, server);
    await open(page);
    const kpi = await page.getByTestId('hashrate-kpi-hashrate').innerText();
    expect(kpi).toMatch(/Average hashrate/);
    expect(kpi).toMatch(/[\d.]+ (TH|PH|EH)\/s/);
    expect(kpi).toMatch(/theoretical/);
    for (const card of ['online', 'reachable', 'hashing'])
      expect(await page.getByTestId(`hashrate-kpi-${card}`).innerText()).toMatch(/\d+(\.\d)?%/);
    // The uptime definitions are on the page.
    expect(await page.getByTestId('hashrate-kpi-hashing').innerText()).toContain('hashrate above 0');
    const series = await page.getByTestId('hashrate-series-table').innerText();
    for (const box of ['Hydro 01', 'Immersion 01', 'Immersion 02', 'Air 01']) expect(series).toContain(box);
    await expect.poll(() => rows(page.getByTestId('hashrate-worst-table')).count()).toBeGreaterThan(0);
    await expectTranslated(page.getByTestId('hashrate-overview'), ['hashrateOverview']);
    await shoot(page, 'hashrate-overview-en');

    // A range change: today by the hour.
    const before = await page.getByTestId('hashrate-range').innerText();
    const asked = page.waitForRequest(
      (r) => r.url().includes('/fbox.statistic/hashrate?') && r.url().includes('bucket=hour'),
    );
    await page.getByTestId('hashrate-preset').getByText('Today').click();
    const request = new URL((await asked).url());
    await expect.poll(() => page.getByTestId('hashrate-range').innerText()).not.toBe(before);
    const zoneAnswer = await api.get<Overview>('/index/fbox.statistic/hashrate', {
      area_id: areaId,
      from: Number(request.searchParams.get('from')),
      to: Number(request.searchParams.get('to')),
      bucket: 'hour',
      split: 'fbox',
    });
    expect(todayQuery(zoneAnswer.time_zone).from).toBe(Number(request.searchParams.get('from')));
    await expect.poll(() => rows(page.getByTestId('hashrate-series-table')).count()).toBe(4);

    // The export: the same rows as the API, asked just before and after (the job runs every minute).
    let matched = false;
    for (let attempt = 0; attempt < 3 && !matched; attempt++) {
      const query = todayQuery(zoneAnswer.time_zone);
      const first = await api.get<Overview>('/index/fbox.statistic/hashrate', query);
      const download = await downloadFromMenu(page, page.getByTestId('hashrate-export'), 'CSV');
      expect(download.suggestedFilename()).toMatch(/^hashrate-\d+-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync((await download.path())!, 'utf8')
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      const second = await api.get<Overview>('/index/fbox.statistic/hashrate', query);
      if (JSON.stringify(first) !== JSON.stringify(second)) continue;
      expect(csv[0]).toBe(
        'Time,Series,Hashrate (TH/s),Theoretical (TH/s),Ratio (%),Online rate (%),Reachable uptime (%),Hashing uptime (%)',
      );
      const names = new Map(first.series.map((s) => [s.key, s.name]));
      const expected: string[][] = [];
      for (const t of first.totals) {
        expected.push(['Mine total', String(Math.round(t.hashrate! * 1000) / 1000)]);
        for (const r of first.rows.filter((x) => x.bucket_ts === t.bucket_ts))
          expected.push([names.get(r.key)!, String(Math.round(r.hashrate! * 1000) / 1000)]);
      }
      expect(csv.slice(1).map((line) => line.split(',').slice(1, 3))).toEqual(expected);
      matched = true;
    }
    expect(matched).toBe(true);

    // A worst miner links to its page.
    const link = rows(page.getByTestId('hashrate-worst-table')).first().locator('a').first();
    const sn = await link.innerText();
    await link.click();
    await page.waitForURL(/\/device\/machineDetail\?id=\d+/);
    await expect.poll(() => page.locator('body').innerText()).toContain(sn);
    expect(errors).toEqual([]);
  }, 120_000);

  it('reads in Chinese', async () => {
    const { page, errors } = await signedIn(browser, server, 'zh');
    await open(page);
    const text = await page.getByTestId('hashrate-overview').innerText();
    for (const label of ['平均算力', '在线率', '可达在线率', '出力在线率', '损失算力最多的矿机'])
      expect(text).toContain(label);
    expect(text).toMatch(/[\d.]+ (TH|PH|EH)\/s/);
    await expectTranslated(page.getByTestId('hashrate-overview'), ['hashrateOverview']);
    await shoot(page, 'hashrate-overview-zh');
    expect(errors).toEqual([]);
  }, 60_000);
});
