// Miner board in a browser (issue 15): a 10,000-miner area (20 FBOXes of 500 miners, 4 tanks each)
// on the real server (SQLite) serving the built web, opened at 1920×1080 in Debian's headless
// Chromium. Two figures, each against a baseline measured in the same run and the same browser:
// - time to first full paint: navigation start to every cell of the page shown in the DOM and
//   painted (a double requestAnimationFrame after the count is reached), fresh page loads, against
//   a static page of 10,000 coloured divs in a CSS grid from a bare node http server;
// - frame time during an update burst: every miner's chip temperature changed in the database and
//   a telemetry event published for the mine every 2 s for ~20 s (each one refetch of the whole
//   board), frames timed by a requestAnimationFrame loop (and long tasks when Chromium reports
//   them), against an idle requestAnimationFrame loop on the static page.
// Prints one JSON line. Run after `npm run build`. BENCH_BOARD_MINERS (10000), BENCH_BOARD_RUNS (5),
// BENCH_BOARD_BURST_S (20) tune it; CHROMIUM_PATH names the browser (/usr/bin/chromium).
import { sql } from 'kysely';
import { chromium } from 'playwright-core';
import { buildApp } from '../apps/server/dist/app.js';
import { startStaticServer, stats } from './lib/browser-bench.mjs';
import { loginToken, openBenchDatabase, percentile, round } from './lib/http-latency.mjs';
import { seedMinerArea } from './lib/seed-area.mjs';

const minersTotal = Number(process.env.BENCH_BOARD_MINERS ?? 10_000);
const runs = Number(process.env.BENCH_BOARD_RUNS ?? 5);
const burstSeconds = Number(process.env.BENCH_BOARD_BURST_S ?? 20);
const perBox = 500;
const viewport = { width: 1920, height: 1080 };
/** How long a page may take to show its cells before the bench says it did not. */
const paintTimeoutMs = 90_000;
const publishEveryMs = 2000;
const username = 'bench';
const password = 'bench-password-1';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const frameStats = (deltas) => {
  const sorted = [...deltas].sort((a, b) => a - b);
  return {
    frames: sorted.length,
    p50: round(percentile(sorted, 50)),
    p95: round(percentile(sorted, 95)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1)),
  };
};

/** The chip temperature band of a board cell (miner-colours.ts): what a cell must show. */
const chipBand = (miner) => {
  if (!miner.online || miner.chip_max_temp === -999) return 'none';
  const celsius = miner.chip_max_temp;
  if (celsius >= 85) return 'critical';
  if (celsius >= 75) return 'hot';
  return celsius >= 60 ? 'warm' : 'ok';
};

// ── In the page ─────────────────────────────────────────────────────────────────────────────────
/**
 * Installed before each page's scripts: marks when the cells of the page shown are all in the DOM
 * (`dom`) and then painted (`painted`, after a double requestAnimationFrame with nothing changed),
 * in ms since navigation start. `perFbox` (the board) gives the expected count from the FBOX
 * blocks shown (a page of them when paging); `expected` (the static page) the count outright.
 */
const paintProbe = ({ perFbox, expected }) => {
  const probe = { dom: null, painted: null, cells: 0, sections: 0 };
  window.__paint = probe;
  const shownNow = () => {
    if (expected !== undefined)
      return { expected, cells: document.querySelectorAll('[data-testid^="miner-cell-"]').length, key: '' };
    const map = document.querySelector('[data-testid="miner-board-map"]');
    if (!map) return null;
    const ids = [...map.querySelectorAll('[data-testid^="miner-board-fbox-"]')].map((section) =>
      section.getAttribute('data-testid').slice('miner-board-fbox-'.length),
    );
    const wanted = ids.reduce((sum, id) => sum + (perFbox[id] ?? Number.NaN), 0);
    const cells = map.querySelectorAll('[data-testid^="miner-cell-"]').length;
    return { expected: wanted, cells, key: ids.join(','), sections: ids.length };
  };
  let waiting = false;
  const observer = new MutationObserver(() => check());
  const check = () => {
    if (probe.painted !== null || waiting) return;
    const first = shownNow();
    if (!first || !(first.expected > 0) || first.cells !== first.expected) return;
    if (probe.dom === null) probe.dom = performance.now();
    waiting = true;
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        waiting = false;
        const again = shownNow();
        if (again && again.cells === first.cells && again.key === first.key) {
          probe.painted = performance.now();
          probe.cells = again.cells;
          probe.sections = again.sections ?? 0;
          observer.disconnect();
        } else {
          probe.dom = null;
          check();
        }
      }),
    );
  };
  observer.observe(document, { childList: true, subtree: true });
};

/** Starts timing frames (requestAnimationFrame deltas) and long tasks, in the page. */
const startFrames = () => {
  const frames = { deltas: [], longTasks: [], longTaskSupported: true, running: true };
  window.__frames = frames;
  let last = null;
  const loop = (t) => {
    if (!frames.running) return;
    if (last !== null) frames.deltas.push(t - last);
    last = t;
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
  try {
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) frames.longTasks.push(entry.duration);
    });
    observer.observe({ type: 'longtask' });
    frames.observer = observer;
  } catch {
    frames.longTaskSupported = false;
  }
};

/** Stops timing frames and answers what was seen. */
const stopFrames = () => {
  const frames = window.__frames;
  frames.running = false;
  if (frames.observer) {
    for (const entry of frames.observer.takeRecords()) frames.longTasks.push(entry.duration);
    frames.observer.disconnect();
  }
  return { deltas: frames.deltas, longTasks: frames.longTasks, longTaskSupported: frames.longTaskSupported };
};

const cellColours = () =>
  Object.fromEntries(
    [...document.querySelectorAll('[data-testid^="miner-cell-"]')].map((cell) => [
      cell.getAttribute('data-testid').slice('miner-cell-'.length),
      cell.getAttribute('data-colour'),
    ]),
  );

// ── The baseline page ───────────────────────────────────────────────────────────────────────────
/** 10,000 plain coloured divs in a CSS grid (10 px pitch like the board's), dark like a board. */
const staticPage = (count) => {
  const bands = ['ok', 'warm', 'hot', 'critical', 'none'];
  const cells = Array.from(
    { length: count },
    (_, i) => `<div class="${bands[(i * 7) % 5]}" data-testid="miner-cell-${i + 1}"></div>`,
  ).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Baseline</title><style>
body{margin:0;background:#0b1220}
#grid{display:grid;grid-template-columns:repeat(auto-fill,8px);grid-auto-rows:8px;gap:2px;padding:16px}
#grid div{border-radius:1px}.ok{background:#2e7d32}.warm{background:#f9a825}.hot{background:#ef6c00}
.critical{background:#c62828}.none{background:#546e7a}
</style></head><body><div id="grid">${cells}</div></body></html>`;
};

// ── The run ─────────────────────────────────────────────────────────────────────────────────────
const { database, dataDir, cleanup } = await openBenchDatabase('sqlite', undefined, 'fbox-bench-board');
const config = { dataDir, demo: false, adminUser: username, adminPassword: password };
const app = await buildApp({ config, database, seed: true, logger: false });
let browser;
let baseline;
const result = { bench: 'web-miner-board', db: app.dbDialect, miners: minersTotal };
const problems = [];
try {
  const seedStarted = Date.now();
  const { area, boxes } = await seedMinerArea(app, { username, minersTotal, perBox });
  result.fboxes = boxes.length;
  result.seed_ms = Date.now() - seedStarted;
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const token = await loginToken(address, username, password);
  const headers = { logintoken: token, 'content-type': 'application/json' };

  // A board over the whole mine (no FBOXes named), coloured by chip temperature; pages (if any)
  // turn every 300 s, so no page turns during a measurement.
  const saved = await (
    await fetch(`${address}/index/fbox.board/save`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        area_id: area.id,
        type: 'minerBoard',
        title: 'Bench site map',
        metric: 'chip_temp',
        page_seconds: 300,
      }),
    })
  ).json();
  if (saved.code !== 1) throw new Error(`board not saved: ${JSON.stringify(saved)}`);
  const boardId = saved.data.id;
  const answerUrl = `${address}/index/fbox.board/miners?area_id=${area.id}&id=${boardId}`;
  const readAnswer = async () => {
    const text = await (await fetch(answerUrl, { headers: { logintoken: token } })).text();
    const parsed = JSON.parse(text);
    if (parsed.code !== 1) throw new Error(`unexpected board answer: ${text.slice(0, 300)}`);
    return { text, data: parsed.data };
  };
  const first = await readAnswer();
  if (first.data.miners.length !== minersTotal)
    throw new Error(`the board answers ${first.data.miners.length} miners, not ${minersTotal}`);
  result.answer_bytes = Buffer.byteLength(first.text);
  const perFbox = {};
  for (const miner of first.data.miners) perFbox[miner.fbox_id] = (perFbox[miner.fbox_id] ?? 0) + 1;

  baseline = await startStaticServer(staticPage(minersTotal));
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  await context.addCookies([{ name: 'language', value: 'en', url: address }]);
  const pageErrors = [];
  const watchErrors = (page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') pageErrors.push(message.text());
    });
    page.on('pageerror', (error) => pageErrors.push(error.message));
  };

  // Signed in through the login form, as a person at the wall's browser would be.
  const login = await context.newPage();
  watchErrors(login);
  await login.goto(`${address}/login`);
  await login.locator('#login_username').fill(username);
  await login.locator('#login_password').fill(password);
  await login.getByTestId('login-submit').click();
  await login.waitForURL(/\/index/, { timeout: 60_000 });
  await login.close();

  const boardUrl = `${address}/minerBoard?id=${boardId}&area_id=${area.id}`;
  /** A fresh page (new tab, new document) loading `url`; answers the page and its paint marks. */
  const load = async (url, probeArgs) => {
    const page = await context.newPage();
    watchErrors(page);
    await page.addInitScript(paintProbe, probeArgs);
    await page.goto(url, { waitUntil: 'commit' });
    try {
      await page.waitForFunction(() => window.__paint?.painted != null, null, {
        timeout: paintTimeoutMs,
        polling: 250,
      });
    } catch {
      const seen = await page
        .evaluate(() => document.querySelectorAll('[data-testid^="miner-cell-"]').length)
        .catch(() => -1);
      return { page, paint: null, seen };
    }
    return { page, paint: await page.evaluate(() => window.__paint) };
  };

  // ── Time to first full paint: a cold load (first visit to the board's code), then runs of the
  // board and the baseline alternately, each a fresh page.
  const cold = await load(boardUrl, { perFbox });
  await cold.page.close();
  result.first_paint_cold_ms = cold.paint ? round(cold.paint.painted) : null;
  const coldBaseline = await load(baseline.url, { expected: minersTotal });
  await coldBaseline.page.close();
  const boardPaints = [];
  const boardDoms = [];
  const baselinePaints = [];
  let boardPage = null;
  let shown = cold.paint;
  for (let run = 0; run < runs && cold.paint; run++) {
    const board = await load(boardUrl, { perFbox });
    if (!board.paint) {
      problems.push(
        `board run ${run + 1}: cells not all painted within ${paintTimeoutMs} ms (${board.seen} seen)`,
      );
      await board.page.close();
      break;
    }
    boardPaints.push(board.paint.painted);
    boardDoms.push(board.paint.dom);
    shown = board.paint;
    if (run === runs - 1) boardPage = board.page;
    else await board.page.close();
    const bare = await load(baseline.url, { expected: minersTotal });
    if (bare.paint) baselinePaints.push(bare.paint.painted);
    else problems.push(`baseline run ${run + 1}: not painted within ${paintTimeoutMs} ms`);
    await bare.page.close();
  }
  if (!cold.paint)
    problems.push(
      `the board did not paint its cells within ${paintTimeoutMs} ms (${cold.seen} of ${minersTotal} in the DOM)`,
    );
  result.cells_first_page = shown?.cells ?? null;
  result.fboxes_first_page = shown?.sections ?? null;
  result.first_paint_ms = boardPaints.length ? stats(boardPaints) : null;
  result.first_cells_in_dom_ms = boardDoms.length ? stats(boardDoms) : null;
  result.baseline_first_paint_ms = baselinePaints.length ? stats(baselinePaints).median : null;
  result.ratio_first_paint =
    result.first_paint_ms && result.baseline_first_paint_ms
      ? round(result.first_paint_ms.median / result.baseline_first_paint_ms)
      : null;

  if (boardPage) {
    const pageLabel = await boardPage
      .getByTestId('miner-board-page')
      .textContent({ timeout: 1000 })
      .catch(() => null);
    const pages = pageLabel?.match(/(\d+)\s*\/\s*(\d+)/);
    result.pages = pages ? Number(pages[2]) : 1;
    // A cell's drawn size, px (its pitch adds the gap; under 10 px of pitch at 1080p it would page).
    result.cell_px = await boardPage.evaluate(
      () =>
        Math.round(
          document.querySelector('[data-testid^="miner-cell-"]').getBoundingClientRect().width * 10,
        ) / 10,
    );

    // The board's live socket must be in the mine's room before the burst.
    for (const deadline = Date.now() + 15_000; app.liveHub.size(area.id) < 1; await sleep(100))
      if (Date.now() > deadline) throw new Error('the board never joined the live feed');
    await sleep(1000);

    // Idle frames of the board itself (nothing changing), for reference.
    await boardPage.evaluate(startFrames);
    await sleep(5000);
    const idle = await boardPage.evaluate(stopFrames);
    result.board_idle_frame_ms_p95 = frameStats(idle.deltas).p95;

    // ── The burst: new readings for every miner and a telemetry event every 2 s.
    const before = await boardPage.evaluate(cellColours);
    let requests = 0;
    let responses = 0;
    let failed = 0;
    const isAnswer = (url) => url.includes('/index/fbox.board/miners');
    boardPage.on('request', (request) => {
      if (isAnswer(request.url())) requests++;
    });
    boardPage.on('requestfinished', (request) => {
      if (isAnswer(request.url())) responses++;
    });
    boardPage.on('requestfailed', (request) => {
      if (isAnswer(request.url())) failed++;
    });
    const fboxIds = boxes.map((box) => box.id);
    const steps = Math.max(1, Math.round((burstSeconds * 1000) / publishEveryMs));
    await boardPage.evaluate(startFrames);
    const burstStarted = Date.now();
    const writeMs = [];
    for (let step = 1; step <= steps; step++) {
      const due = burstStarted + (step - 1) * publishEveryMs;
      if (due > Date.now()) await sleep(due - Date.now());
      const written = Date.now();
      // Every online miner a new hottest chip, 55–94 °C: across all four bands, most cells change.
      await app.db
        .updateTable('miner_readings')
        .set({
          chip_max_temp: sql`55 + ((miner_id * 37 + ${step * 11}) % 40)`,
          updated_at: Date.now(),
        })
        .where('miner_id', 'in', (eb) =>
          eb
            .selectFrom('miner_info')
            .select('miner_id')
            .where('area_id', '=', area.id)
            .where('online', '=', 1),
        )
        .execute();
      writeMs.push(Date.now() - written);
      app.live.publish({ type: 'telemetry', areaId: area.id, fboxIds });
    }
    // The last event's refetch: the hub's 2 s, the page's 1 s gathering, the read and the render.
    for (const deadline = Date.now() + 15_000; responses + failed < steps && Date.now() < deadline; )
      await sleep(100);
    await sleep(1500);
    const burst = await boardPage.evaluate(stopFrames);
    result.burst_s = round((Date.now() - burstStarted) / 1000);
    result.telemetry_events = steps;
    result.db_write_ms_median = stats(writeMs).median;
    const frames = frameStats(burst.deltas);
    result.frames = frames.frames;
    result.frame_ms = { p50: frames.p50, p95: frames.p95, p99: frames.p99, max: frames.max };
    result.long_tasks = burst.longTaskSupported ? burst.longTasks.length : null;
    result.long_task_ms = burst.longTaskSupported ? round(burst.longTasks.reduce((a, b) => a + b, 0)) : null;
    result.long_task_max_ms = burst.longTasks.length ? round(Math.max(...burst.longTasks)) : 0;
    result.refetches = responses;
    result.refetch_requests = requests;
    result.refetches_failed = failed;

    // Did the cells follow? Changed since before the burst, and each as the database says now.
    const after = await boardPage.evaluate(cellColours);
    const now = await readAnswer();
    const band = new Map(now.data.miners.map((miner) => [String(miner.id), chipBand(miner)]));
    const ids = Object.keys(after);
    result.cells_compared = ids.length;
    result.cells_changed = ids.filter((id) => before[id] !== undefined && before[id] !== after[id]).length;
    result.cells_as_database = ids.filter((id) => band.get(id) === after[id]).length;
    result.sample_colours = ids
      .slice(0, 4)
      .map((id) => ({ miner: Number(id), before: before[id], after: after[id], database: band.get(id) }));
    await boardPage.close();

    // ── Baseline frames: an idle requestAnimationFrame loop on the static page.
    const bare = await load(baseline.url, { expected: minersTotal });
    await bare.page.evaluate(startFrames);
    await sleep(Math.min(10_000, burstSeconds * 1000));
    const idleBare = await bare.page.evaluate(stopFrames);
    await bare.page.close();
    result.baseline_frame_ms_p95 = frameStats(idleBare.deltas).p95;
    result.ratio_frame_p95 = round(result.frame_ms.p95 / result.baseline_frame_ms_p95);
    if (result.cells_changed === 0) problems.push('no cell changed colour during the burst');
    if (result.cells_as_database !== result.cells_compared)
      problems.push(
        `${result.cells_compared - result.cells_as_database} cells do not show the database's last reading`,
      );
  }
  result.page_errors = pageErrors.length;
  if (pageErrors.length) result.page_error_sample = pageErrors.slice(0, 3);
  await context.close();
} catch (error) {
  problems.push(error instanceof Error ? error.message : String(error));
} finally {
  if (problems.length) result.problems = problems;
  console.log(JSON.stringify(result));
  await browser?.close();
  await baseline?.close();
  await app.close();
  await cleanup();
}
if (problems.length) process.exitCode = 1;
