import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, type FboxRow, LIVE_TIMEOUT, reportedBoxes, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { expectTranslated, fitsTheScreen, shoot, signedIn } from '../lib/page.js';
import { freePort, type RunningServer, startServer } from '../lib/server.js';
import { simulatorFault } from '../lib/simulator.js';

/**
 * The miner board with the demo mine: a site map of every demo miner at 1920×1080 (a cell per
 * miner, FBOX by FBOX, tank by tank), the card of a hovered cell, and a cell turning to the fault
 * colour when the simulator's miner reports a fault (injected with its CLI); in English and Chinese.
 */

interface MinerAnswer {
  id: number;
  fbox_id: number;
  sn: string;
  online: boolean;
  fault: string;
}

interface MinerBoardAnswer {
  board: { id: number; metric: string; page_seconds: number };
  fboxes: { id: number; name: string }[];
  miners: MinerAnswer[];
}

let server: RunningServer;
let browser: Browser;
let api: Api;
let mqttPort = 0;
let areaId = 0;
let boxes: FboxRow[] = [];
let boardId = 0;

beforeAll(async () => {
  mqttPort = await freePort();
  [server, browser] = await Promise.all([startServer({ MQTT_PORT: String(mqttPort) }), launchBrowser()]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
  boxes = await reportedBoxes(server, api, areaId);
  const saved = await api.postJson<{ id: number }>('/index/fbox.board/save', {
    area_id: areaId,
    type: 'minerBoard',
    title: 'Site map',
    metric: 'status',
  });
  expect(saved.code, saved.msg).toBe(1);
  boardId = saved.data.id;
}, 120_000);

afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop()]);
});

const fault = (...args: string[]) => simulatorFault(mqttPort, ...args);

const boardAnswer = () =>
  api.get<MinerBoardAnswer>('/index/fbox.board/miners', { area_id: areaId, id: boardId });

const openBoard = async (page: Page) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(`${server.url}/minerBoard?id=${boardId}&area_id=${areaId}`);
  await page.getByTestId('miner-board-map').waitFor();
  await page.locator('[data-testid^="miner-cell-"]').first().waitFor();
};

describe('miner board', () => {
  it('maps every miner of the mine at 1920×1080, shows a hovered miner, and recolours a faulty one live', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'en');
    await openBoard(page);
    const answer = await boardAnswer();
    expect(answer.board).toMatchObject({ metric: 'status', page_seconds: 20 });
    expect(answer.miners.length).toBeGreaterThan(0);
    await expect.poll(() => page.locator('[data-testid^="miner-cell-"]').count()).toBe(answer.miners.length);
    for (const fbox of answer.fboxes) await page.getByTestId(`miner-board-fbox-${fbox.id}`).waitFor();
    // The demo's FBOXes fit one page at a legible size.
    expect(await page.getByTestId('miner-board-page').count()).toBe(0);
    expect(await fitsTheScreen(page)).toBe(true);
    expect(await page.getByTestId('miner-board-legend').innerText()).toContain('Offline');

    // Hover: the card names the miner.
    const running = answer.miners.filter((m) => m.online && m.fault === '');
    const target = running[0]!;
    await page.getByTestId(`miner-cell-${target.id}`).hover();
    const card = page.getByTestId('miner-board-popover');
    await card.waitFor();
    expect(await card.innerText()).toContain(target.sn);
    await page.mouse.move(0, 0);
    await card.waitFor({ state: 'detached' });

    // A fault on that miner from the simulator: its cell turns to the fault colour with the next report.
    const cell = page.getByTestId(`miner-cell-${target.id}`);
    expect(await cell.getAttribute('data-colour')).toBe('online');
    const box = boxes.find((b) => b.id === target.fbox_id)!;
    const injected = await fault(
      'miner_fault',
      '--fbox',
      box.device_id,
      '--miner',
      target.sn,
      '--duration',
      '5m',
    );
    expect(injected.stdout).toContain('miner_fault');
    await expect.poll(() => cell.getAttribute('data-colour'), { timeout: LIVE_TIMEOUT }).toBe('fault');
    await expectTranslated(page.getByTestId('board-screen'), ['board', 'app', 'device', 'common']);
    await shoot(page, 'miner-board-en');
    await fault('clear', 'miner_fault', '--fbox', box.device_id);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('fills a 4K wall as the big screen, with the totals over the site map, coloured by chip temperature', async () => {
    const saved = await api.postJson<{ id: number }>('/index/fbox.board/save', {
      area_id: areaId,
      type: 'minerBigScreen',
      title: 'Wall',
      metric: 'chip_temp',
    });
    expect(saved.code, saved.msg).toBe(1);
    const { page, context, errors } = await signedIn(browser, server, 'en');
    await page.setViewportSize({ width: 3840, height: 2160 });
    await page.goto(`${server.url}/minerBigScreen?id=${saved.data.id}&area_id=${areaId}`);
    await page.getByTestId('miner-total-online').waitFor();
    await page.locator('[data-testid^="miner-cell-"]').first().waitFor();
    const colours = await page
      .locator('[data-testid^="miner-cell-"]')
      .evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-colour')));
    expect(colours.every((c) => ['ok', 'warm', 'hot', 'critical', 'none'].includes(c ?? ''))).toBe(true);
    expect(await fitsTheScreen(page)).toBe(true);
    await page.locator('[data-testid^="miner-cell-"]').nth(5).hover();
    await page.getByTestId('miner-board-popover').waitFor();
    await shoot(page, 'miner-big-screen-4k');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the site map in Chinese', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'zh');
    await openBoard(page);
    const answer = await boardAnswer();
    await expect.poll(() => page.locator('[data-testid^="miner-cell-"]').count()).toBe(answer.miners.length);
    expect(await fitsTheScreen(page)).toBe(true);
    expect(await page.getByTestId('miner-board-legend').innerText()).toContain('离线');
    await expectTranslated(page.getByTestId('board-screen'), ['board', 'app', 'device', 'common']);
    await shoot(page, 'miner-board-zh');
    expect(errors).toEqual([]);
    await context.close();
  });
});
