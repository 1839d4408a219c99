import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, reportedBoxes, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { expectTranslated, fitsTheScreen, shoot, signedIn } from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * The tank board, the miner commissioning board and the new data board with the demo mine at
 * 1920×1080, in English and Chinese, without scrollbars: every tank as a card with its readings
 * against the alert rules' thresholds (and on a wall TV by its kiosk link, without login); every
 * miner's pass / fail over the test window on the site map, judged from the rollups as the demo's
 * miners report; the mine's headline figures with each FBOX's hashrate and the demo's revenue, on
 * the new data board and the data board alike.
 */

interface TestBoardAnswer {
  counts: { pass: number; fail: number; no_data: number };
  miners: { id: number; verdict: string }[];
}

interface TankBoardAnswer {
  fboxes: { id: number; tanks: { id: number; online: boolean }[] }[];
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

const createBoard = async (type: string, title: string, options: Record<string, unknown> = {}) => {
  const saved = await api.postJson<{ id: number }>('/index/fbox.board/save', {
    area_id: areaId,
    type,
    title,
    ...options,
  });
  expect(saved.code, saved.msg).toBe(1);
  return saved.data.id;
};

describe('tank board', () => {
  let boardId = 0;

  it('shows every tank of the mine against the alert rules at 1920×1080, in English', async () => {
    boardId = await createBoard('tankBoard', 'Oil tanks');
    const answer = await api.get<TankBoardAnswer>('/index/fbox.board/tanks', {
      area_id: areaId,
      id: boardId,
    });
    const tankIds = answer.fboxes.flatMap((f) => f.tanks.map((t) => t.id));
    expect(tankIds.length).toBeGreaterThan(0);
    const { page, context, errors } = await signedIn(browser, server, 'en');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${server.url}/tankBoard?id=${boardId}&area_id=${areaId}`);
    await page.getByTestId('tank-board-grid').waitFor();
    await expect.poll(() => page.locator('[data-testid^="tank-card-"]').count()).toBe(tankIds.length);
    // The demo's tanks report: readings with their rule's threshold (default rules watch oil out).
    const first = page.getByTestId(`tank-${tankIds[0]}-oil_out_temp`);
    await expect.poll(() => first.innerText()).toMatch(/°C/);
    expect(await first.innerText()).toMatch(/alert > \d+/);
    expect(await fitsTheScreen(page)).toBe(true);
    await expectTranslated(page.getByTestId('board-screen'), ['board', 'app', 'common']);
    await shoot(page, 'tank-board-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the tank board in Chinese', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'zh');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${server.url}/tankBoard?id=${boardId}&area_id=${areaId}`);
    await page.getByTestId('tank-board-grid').waitFor();
    expect(await page.getByTestId('tank-board-summary').innerText()).toContain('个油箱');
    expect(await fitsTheScreen(page)).toBe(true);
    await expectTranslated(page.getByTestId('board-screen'), ['board', 'app', 'common']);
    await shoot(page, 'tank-board-zh');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the tank board on a wall TV by its kiosk link, and nothing after it is revoked', async () => {
    const made = await api.postJson<{ token: string }>('/index/fbox.board/kiosk_create', {
      area_id: areaId,
      id: boardId,
    });
    expect(made.code, made.msg).toBe(1);
    const tv = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const wall = await tv.newPage();
    const wallErrors: string[] = [];
    wall.on('pageerror', (e) => wallErrors.push(e.message));
    await wall.goto(`${server.url}/tankBoard?kiosk=${made.data.token}`);
    await wall.getByTestId('tank-board-grid').waitFor();
    expect(await wall.getByTestId('board-title').innerText()).toBe('Oil tanks');
    expect(await fitsTheScreen(wall)).toBe(true);
    // The link opens this board's page only.
    await wall.goto(`${server.url}/dataBoard?kiosk=${made.data.token}`);
    await wall.getByTestId('board-not-found').waitFor();
    const revoked = await api.postJson('/index/fbox.board/kiosk_revoke', { area_id: areaId, id: boardId });
    expect(revoked.code).toBe(1);
    await wall.goto(`${server.url}/tankBoard?kiosk=${made.data.token}`);
    await wall.getByTestId('board-not-found').waitFor();
    expect(wallErrors).toEqual([]);
    await tv.close();
  });
});

describe('new data board, and revenue on the data boards', () => {
  it('shows the headline figures, each FBOX’s hashrate and the revenue at 1920×1080, in English', async () => {
    const boardId = await createBoard('dataBoardNew', 'Hall overview');
    const { page, context, errors } = await signedIn(browser, server, 'en');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${server.url}/dataBoardNew?id=${boardId}&area_id=${areaId}`);
    await page.getByTestId('board-kpi-hashrate').waitFor();
    const answer = await api.get<{ fboxes: { id: number }[]; revenue?: unknown }>('/index/fbox.board/data', {
      area_id: areaId,
      id: boardId,
    });
    for (const fbox of answer.fboxes) await page.getByTestId(`board-fbox-bar-${fbox.id}`).waitFor();
    // The demo mine has revenue settings: the panel shows today's and yesterday's figures.
    expect(answer.revenue).toBeDefined();
    expect(await page.getByTestId('board-revenue-today').innerText()).toMatch(/Today/);
    expect(await fitsTheScreen(page)).toBe(true);
    await expectTranslated(page.getByTestId('board-screen'), ['board', 'app', 'common', 'alertLevel']);
    await shoot(page, 'data-board-new-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the new data board in Chinese, and the revenue on the data board', async () => {
    const newBoard = await createBoard('dataBoardNew', 'Overview');
    const dataBoard = await createBoard('dataBoard', 'Figures');
    const { page, context, errors } = await signedIn(browser, server, 'zh');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${server.url}/dataBoardNew?id=${newBoard}&area_id=${areaId}`);
    await page.getByTestId('board-revenue').waitFor();
    expect(await page.getByTestId('board-revenue').innerText()).toContain('今日');
    expect(await fitsTheScreen(page)).toBe(true);
    await expectTranslated(page.getByTestId('board-screen'), ['board', 'app', 'common', 'alertLevel']);
    await shoot(page, 'data-board-new-zh');
    await page.goto(`${server.url}/dataBoard?id=${dataBoard}&area_id=${areaId}`);
    await page.getByTestId('board-revenue').waitFor();
    expect(await fitsTheScreen(page)).toBe(true);
    await shoot(page, 'data-board-revenue-zh');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('on a 4K wall', () => {
  it('fills 3840×2160 with the tank board and the new data board, without scrollbars', async () => {
    const tanks = await createBoard('tankBoard', 'Tanks 4K');
    const overview = await createBoard('dataBoardNew', 'Overview 4K');
    const { page, context, errors } = await signedIn(browser, server, 'en');
    await page.setViewportSize({ width: 3840, height: 2160 });
    await page.goto(`${server.url}/tankBoard?id=${tanks}&area_id=${areaId}`);
    await page.getByTestId('tank-board-grid').waitFor();
    expect(await fitsTheScreen(page)).toBe(true);
    await shoot(page, 'tank-board-4k');
    await page.goto(`${server.url}/dataBoardNew?id=${overview}&area_id=${areaId}`);
    await page.getByTestId('board-fbox-bars').waitFor();
    await page.locator('[data-testid="board-chart-hashrate"] canvas').waitFor();
    expect(await fitsTheScreen(page)).toBe(true);
    await shoot(page, 'data-board-new-4k');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('miner commissioning board', () => {
  let boardId = 0;
  const answer = () => api.get<TestBoardAnswer>('/index/fbox.board/test', { area_id: areaId, id: boardId });

  it('judges every miner of the mine over the last hour on the site map, in English', async () => {
    boardId = await createBoard('minerBoardTest', 'Commissioning', { test_hours: 1, pass_ratio: 80 });
    // The hashrate rollup runs every minute: the demo's reports become verdicts (last in the file,
    // so the boards above are checked while the first minute's rollup is awaited).
    await expect
      .poll(
        async () => {
          const { counts } = await answer();
          return counts.pass + counts.fail;
        },
        { timeout: 120_000, interval: 2_000 },
      )
      .toBeGreaterThan(0);
    const { page, context, errors } = await signedIn(browser, server, 'en');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${server.url}/minerBoardTest?id=${boardId}&area_id=${areaId}`);
    await page.getByTestId('miner-board-map').waitFor();
    const judged = await answer();
    await expect.poll(() => page.locator('[data-testid^="miner-cell-"]').count()).toBe(judged.miners.length);
    const colours = await page
      .locator('[data-testid^="miner-cell-"]')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-colour')));
    expect(colours.every((c) => ['pass', 'fail', 'no_data'].includes(c ?? ''))).toBe(true);
    expect(colours.filter((c) => c !== 'no_data').length).toBeGreaterThan(0);
    expect(await page.getByTestId('test-board-legend').innerText()).toContain('pass ≥ 80 %');
    expect(await fitsTheScreen(page)).toBe(true);
    await page.locator('[data-testid^="miner-cell-"]:not([data-colour="no_data"])').first().hover();
    expect(await page.getByTestId('miner-board-popover').innerText()).toMatch(/Verdict/);
    await expectTranslated(page.getByTestId('board-screen'), ['board', 'app', 'device', 'common']);
    await shoot(page, 'test-board-en');
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it('shows the commissioning board in Chinese', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'zh');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${server.url}/minerBoardTest?id=${boardId}&area_id=${areaId}`);
    await page.getByTestId('miner-board-map').waitFor();
    expect(await page.getByTestId('test-count-pass').innerText()).toContain('合格');
    expect(await fitsTheScreen(page)).toBe(true);
    await expectTranslated(page.getByTestId('board-screen'), ['board', 'app', 'device', 'common']);
    await shoot(page, 'test-board-zh');
    expect(errors).toEqual([]);
    await context.close();
  });
});
