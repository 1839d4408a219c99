// The console in a browser (issue 17, goal 4), on the real server (SQLite) serving the built web
// with a 100,000-miner mine, in Debian's headless Chromium. Three measurements:
// - every route, a fresh load (empty cache) signed in: the files the browser actually fetches
//   (document, scripts, styles, images; API and live-feed calls left out), their gzip size (the
//   build's precompressed copies) and what went over the wire (brotli here), against the budget
//   of ≤ 300 KB gzip and ≤ 30 requests;
// - the miner list: navigation start to its first page of rows in the DOM, cold (empty cache) and
//   warm (the files cached), against a static page with the same 20-row table from a bare server,
//   with the main thread's task time until then (steadier than the wall time for comparing builds);
// - Lighthouse (mobile, simulated throttling, performance only) on /login and the miner list,
//   against the same static page, target ≥ 0.9.
// Prints JSON lines. Run after `npm run build`. BENCH_CONSOLE_MINERS (100000), BENCH_CONSOLE_RUNS (5),
// BENCH_LIGHTHOUSE_RUNS (3) tune it, BENCH_CONSOLE_PARTS (routes,rows,lighthouse) picks what runs;
// CHROMIUM_PATH names the browser (/usr/bin/chromium); BENCH_WEB_DIST serves another build (a copy of
// apps/web/dist from another commit, to compare two builds in runs taken one after the other).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import puppeteer from 'puppeteer-core';
import { buildApp } from '../apps/server/dist/app.js';
import { startStaticServer, stats } from './lib/browser-bench.mjs';
import { consoleRoutes } from './lib/console-routes.mjs';
import { loginToken, openBenchDatabase, round } from './lib/http-latency.mjs';
import { seedMinerArea } from './lib/seed-area.mjs';

const minersTotal = Number(process.env.BENCH_CONSOLE_MINERS ?? 100_000);
const runs = Number(process.env.BENCH_CONSOLE_RUNS ?? 5);
const lighthouseRuns = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const parts = new Set((process.env.BENCH_CONSOLE_PARTS ?? 'routes,rows,lighthouse').split(','));
const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromeFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'];
const budget = { gzipBytes: 300 * 1024, requests: 30 };
const targets = { rowsMs: 1000, lighthouseScore: 0.9 };
const rowsPerPage = 20;
const username = 'bench';
const password = 'bench-password-1';
const tokenCookie = 'Admin-Token';
const dist = process.env.BENCH_WEB_DIST ?? fileURLToPath(new URL('../apps/web/dist/', import.meta.url));
/** Calls that are data, not page files. */
const apiPath = /^\/(index\/|api\/|ff-plat-api\/|ws(\?|$))/;

/** The gzip size of a built file as the server would send it (its `.gz` copy, or itself when none). */
const gzipBytesOf = (path) => {
  const file = join(dist, path === '/' || !path.includes('.') ? 'index.html' : path.slice(1));
  if (!existsSync(file)) return 0;
  if (existsSync(`${file}.gz`)) return statSync(`${file}.gz`).size;
  return /\.(js|css|html|svg|json)$/.test(file) ? gzipSync(readFileSync(file)).length : statSync(file).size;
};

// ── In the page ─────────────────────────────────────────────────────────────────────────────────
/** Installed before the page's scripts: when the table first holds `expected` rows (ms since navigation). */
const rowsProbe = (expected) => {
  const probe = { rows: null };
  window.__rows = probe;
  const observer = new MutationObserver(() => {
    const count = document.querySelectorAll('[data-testid="miner-list-table"] tr[data-row-key]').length;
    if (count >= expected) {
      probe.rows = performance.now();
      observer.disconnect();
    }
  });
  observer.observe(document, { childList: true, subtree: true });
};

/** A plain HTML page with the miner list's first page as a 20-row table: the baseline. */
const staticPage = () => {
  const cells = (i) =>
    ['SN', 'Model', 'Pool', 'Worker', 'IP', 'Hashrate', 'Power', 'Temp']
      .map((c) => `<td>${c} ${i}</td>`)
      .join('');
  const rows = Array.from(
    { length: rowsPerPage },
    (_, i) => `<tr data-row-key="${i + 1}">${cells(i + 1)}</tr>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Miners</title>
<style>body{font-family:sans-serif;margin:16px}table{border-collapse:collapse;width:100%}
td{border-bottom:1px solid #eee;padding:8px}</style></head><body><h1>Miners</h1>
<table data-testid="miner-list-table"><tbody>${rows.join('')}</tbody></table></body></html>`;
};

/**
 * One Lighthouse run (its own Chromium, fresh profile and empty cache), signed in by the session
 * cookie when one is given; answers the performance score and its metrics.
 */
const lighthouseRun = async (url, token) => {
  const chrome = await chromeLauncher.launch({ chromePath, chromeFlags });
  try {
    if (token) {
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const page = await browser.newPage();
      await page.setCookie({ name: tokenCookie, value: token, url });
      await page.close();
      await browser.disconnect();
    }
    const { lhr } = await lighthouse(url, {
      port: chrome.port,
      onlyCategories: ['performance'],
      logLevel: 'error',
      // Keeps the cookie; the profile is new, so the cache is empty anyway.
      disableStorageReset: Boolean(token),
    });
    if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
    const metric = (id) => round(lhr.audits[id].numericValue);
    return {
      score: lhr.categories.performance.score,
      fcp_ms: metric('first-contentful-paint'),
      lcp_ms: metric('largest-contentful-paint'),
      tbt_ms: metric('total-blocking-time'),
      cls: metric('cumulative-layout-shift'),
      speed_index_ms: metric('speed-index'),
      final_url: lhr.finalDisplayedUrl,
    };
  } finally {
    await chrome.kill();
  }
};

const lighthouseMedian = async (url, token) => {
  const results = [];
  for (let i = 0; i < lighthouseRuns; i++) results.push(await lighthouseRun(url, token));
  const median = (key) => stats(results.map((r) => r[key])).median;
  return {
    score: stats(results.map((r) => r.score)),
    fcp_ms: median('fcp_ms'),
    lcp_ms: median('lcp_ms'),
    tbt_ms: median('tbt_ms'),
    cls: median('cls'),
    speed_index_ms: median('speed_index_ms'),
    final_url: results[0].final_url,
  };
};

const summarizeRoutes = (routeResults) => {
  const failing = routeResults.filter((r) => !r.pass);
  const byRequests = routeResults.filter((r) => r.requests <= budget.requests).length;
  const byBytes = routeResults.filter((r) => r.gzipBytes <= budget.gzipBytes).length;
  console.log(
    JSON.stringify({
      bench: 'web.routes',
      routes: routeResults.length,
      passing: routeResults.length - failing.length,
      within_requests: byRequests,
      within_bytes: byBytes,
      largest_gzip_bytes: Math.max(...routeResults.map((r) => r.gzipBytes)),
      median_gzip_bytes: stats(routeResults.map((r) => r.gzipBytes)).median,
      most_requests: Math.max(...routeResults.map((r) => r.requests)),
      failing: failing.map((r) => r.route),
      budget,
    }),
  );
};

// ── The run ─────────────────────────────────────────────────────────────────────────────────────
const { database, dataDir, cleanup } = await openBenchDatabase('sqlite', undefined, 'fbox-bench-console');
const config = { dataDir, demo: false, adminUser: username, adminPassword: password, webDist: dist };
const app = await buildApp({ config, database, seed: true, logger: false });
let browser;
let baseline;
const problems = [];
try {
  const seedStarted = Date.now();
  const { boxes } = await seedMinerArea(app, { username, minersTotal, perBox: 500 });
  const seedMs = Date.now() - seedStarted;
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const origin = new URL(address).origin;
  const token = await loginToken(address, username, password);
  const tank = await app.db
    .selectFrom('tanks')
    .select('id')
    .where('fbox_id', '=', boxes[0].id)
    .executeTakeFirstOrThrow();
  const miner = await app.db
    .selectFrom('miners')
    .select('id')
    .where('fbox_id', '=', boxes[0].id)
    .executeTakeFirstOrThrow();
  /** Each route as a person would open it: detail pages name a device of the mine. */
  const urlOf = (path) => {
    const query = {
      '/device/boxDetail': `?id=${boxes[0].id}`,
      '/device/boxDetailHydro': `?id=${boxes[0].id}`,
      '/device/deviceDetail': `?id=${tank.id}`,
      '/device/machineDetail': `?id=${miner.id}`,
    };
    return `${address}${path.replace('/*', '/index')}${query[path] ?? ''}`;
  };
  const minerListUrl = urlOf('/device/machineList');

  browser = await chromium.launch({ executablePath: chromePath, args: [...chromeFlags, '--disable-quic'] });
  const cookie = (name, value) => ({
    name,
    value,
    domain: '127.0.0.1',
    path: '/',
    expires: -1,
    httpOnly: false,
    secure: false,
    sameSite: 'Lax',
  });
  const language = cookie('language', 'en');
  const storageState = { cookies: [cookie(tokenCookie, token), language], origins: [] };
  const freshContext = (signedIn = true) =>
    browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: 'en-US',
      storageState: signedIn ? storageState : { cookies: [language], origins: [] },
    });

  // ── Every route, fresh ────────────────────────────────────────────────────────────────────────
  const routeResults = [];
  for (const { path } of parts.has('routes') ? consoleRoutes() : []) {
    const context = await freshContext(path !== '/login');
    const page = await context.newPage();
    const files = new Map();
    let lastFileAt = Date.now();
    let pending = 0;
    const errors = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin || apiPath.test(url.pathname + url.search)) return;
      pending++;
      lastFileAt = Date.now();
    });
    page.on('requestfinished', async (request) => {
      const url = new URL(request.url());
      if (url.origin !== origin || apiPath.test(url.pathname + url.search)) return;
      const sizes = await request.sizes().catch(() => ({ responseBodySize: 0, responseHeadersSize: 0 }));
      files.set(url.pathname, {
        gzip: gzipBytesOf(url.pathname),
        transferred: sizes.responseBodySize + sizes.responseHeadersSize,
      });
      pending--;
      lastFileAt = Date.now();
    });
    page.on('requestfailed', () => {
      pending--;
      lastFileAt = Date.now();
    });
    await page.goto(urlOf(path), { waitUntil: 'load', timeout: 60_000 });
    // Done when no page file has been asked for or arrived for 1.5 s.
    const deadline = Date.now() + 30_000;
    while ((pending > 0 || Date.now() - lastFileAt < 1500) && Date.now() < deadline)
      await page.waitForTimeout(100);
    const list = [...files.values()];
    const gzipBytes = list.reduce((sum, f) => sum + f.gzip, 0);
    const result = {
      bench: 'web.route',
      route: path,
      landed: new URL(page.url()).pathname,
      requests: list.length,
      gzipBytes,
      transferredBytes: list.reduce((sum, f) => sum + f.transferred, 0),
      budget,
      ratio: round(gzipBytes / budget.gzipBytes),
      pass: gzipBytes <= budget.gzipBytes && list.length <= budget.requests,
    };
    if (errors.length) problems.push(`${path}: ${errors.join('; ')}`);
    console.log(JSON.stringify(result));
    routeResults.push(result);
    await context.close();
  }
  if (parts.has('routes')) summarizeRoutes(routeResults);

  // ── Miner list rows after navigation ──────────────────────────────────────────────────────────
  baseline = await startStaticServer(staticPage());
  /**
   * When the rows showed, and the main thread's task time until then (Chrome's own count for the
   * document, read through CDP): steadier than the wall time on a machine that is not quiet.
   */
  const rowsAt = async (page, cdp, url) => {
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction(() => window.__rows?.rows != null, null, { timeout: 60_000, polling: 50 });
    const { metrics } = await cdp.send('Performance.getMetrics');
    const taskSeconds = metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
    return { ms: await page.evaluate(() => window.__rows.rows), taskMs: taskSeconds * 1000 };
  };
  const cold = [];
  const warm = [];
  const bare = [];
  for (let run = 0; parts.has('rows') && run < runs; run++) {
    const context = await freshContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.addInitScript(rowsProbe, rowsPerPage);
    cold.push(await rowsAt(page, cdp, minerListUrl));
    warm.push(await rowsAt(page, cdp, minerListUrl));
    bare.push(await rowsAt(page, cdp, baseline.url));
    await context.close();
  }
  const ms = (loads) => stats(loads.map((load) => load.ms));
  const taskMs = (loads) => stats(loads.map((load) => load.taskMs));
  if (parts.has('rows'))
    console.log(
      JSON.stringify({
        bench: 'web.miner-list-rows',
        miners: minersTotal,
        seed_ms: seedMs,
        rows: rowsPerPage,
        cold_ms: ms(cold),
        warm_ms: ms(warm),
        baseline_ms: ms(bare).median,
        ratio_cold: round(ms(cold).median / ms(bare).median),
        ratio_warm: round(ms(warm).median / ms(bare).median),
        // Main-thread task time until the rows showed (not a target: to compare builds).
        cold_task_ms: taskMs(cold),
        warm_task_ms: taskMs(warm),
        baseline_task_ms: taskMs(bare).median,
        target_ms: targets.rowsMs,
        pass: ms(cold).median <= targets.rowsMs && ms(warm).median <= targets.rowsMs,
      }),
    );
  await browser.close();
  browser = undefined;

  // ── Lighthouse, mobile ────────────────────────────────────────────────────────────────────────
  const pages = [
    ['/login', `${address}/login`, false],
    ['/device/machineList', minerListUrl, true],
  ];
  const bareScore = parts.has('lighthouse') ? await lighthouseMedian(baseline.url) : undefined;
  for (const [label, url, signedIn] of parts.has('lighthouse') ? pages : []) {
    const measured = await lighthouseMedian(url, signedIn ? token : undefined);
    if (new URL(measured.final_url).pathname !== label)
      problems.push(`lighthouse ${label} ended at ${measured.final_url}`);
    console.log(
      JSON.stringify({
        bench: 'web.lighthouse',
        page: label,
        form_factor: 'mobile',
        runs: lighthouseRuns,
        ...measured,
        baseline_score: bareScore.score.median,
        ratio: round(measured.score.median / bareScore.score.median),
        target: targets.lighthouseScore,
        pass: measured.score.median >= targets.lighthouseScore,
      }),
    );
  }
} finally {
  await browser?.close();
  await baseline?.close();
  await app.close();
  await cleanup();
}
if (problems.length) {
  console.log(JSON.stringify({ bench: 'web-console', problems }));
  process.exitCode = 1;
}
