import { randomBytes } from 'node:crypto';
import { startZlmApi, type ZlmApi } from '@fbox/simulator';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, demoMineId, eventually, type ListPage, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { clickUntilGone, expectTranslated, rowWith, shoot, signedIn } from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * Cameras with the demo mine on a server given a media server (`ZLM_URL`, `ZLM_SECRET`): the
 * simulator's, speaking ZLMediaKit's HTTP API, serving the demo cameras' streams, one of them
 * offline. The FBOX detail shows each camera's status and the snapshots the job took, one opened
 * large, in English and Chinese; a camera is added from the page.
 */

const ZLM = '/ff-plat-api/api/zlm';
/** The demo's second FBOX, an immersion one: its cameras are `live/fb-002-aisle` and `…-door`. */
const boxName = 'Immersion 01';

let server: RunningServer;
let browser: Browser;
let zlm: ZlmApi;
let api: Api;
let areaId = 0;
let fboxId = 0;

beforeAll(async () => {
  const streams = [1, 2, 3, 4].flatMap((n) =>
    ['aisle', 'door'].map((key) => ({ app: 'live', stream: `fb-00${n}-${key}`, label: `FB-00${n} ${key}` })),
  );
  zlm = await startZlmApi({
    streams: () => streams,
    secret: randomBytes(8).toString('hex'),
    offlinePercent: 0,
  });
  zlm.setOnline('live', 'fb-002-door', false);
  [server, browser] = await Promise.all([
    startServer({ ZLM_URL: zlm.url, ZLM_SECRET: zlm.secret }),
    launchBrowser(),
  ]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
  const boxes = await api.get<{ id: number; name: string }[]>('/index/fbox.boxlist/getboxlist', {
    area_id: areaId,
  });
  fboxId = boxes.find((b) => b.name === boxName)?.id ?? 0;
  // The snapshot job's first run captures the online cameras.
  await eventually(server, 'a snapshot of the aisle camera', async () => {
    const answer = await api.postJson<ListPage<unknown>>(`${ZLM}/listCapturedImages`, {
      area_id: areaId,
      fbox_id: fboxId,
    });
    return answer.code === 1 && answer.data.total > 0 ? true : undefined;
  });
}, 120_000);

afterAll(async () => {
  await Promise.all([browser?.close(), server?.stop(), zlm?.stop()]);
});

/** The width of the image an `<img>` shows: 0 until it has loaded a real picture. */
const naturalWidth = (img: unknown) => (img as { naturalWidth: number }).naturalWidth;

const openDetail = async (language: 'en' | 'zh') => {
  const opened = await signedIn(browser, server, language);
  await opened.page.goto(`${server.url}/device/boxDetail?id=${fboxId}`);
  const section = opened.page.getByTestId('camera-section');
  await section.getByTestId('camera-table').waitFor();
  return { ...opened, section };
};

describe('cameras', () => {
  it('shows the cameras of an FBOX with their status and the snapshots by time, in English', async () => {
    const { page, context, errors, section } = await openDetail('en');
    const table = section.getByTestId('camera-table');
    await expect.poll(() => rowWith(table, `${boxName} aisle`).innerText()).toContain('Online');
    expect(await rowWith(table, `${boxName} door`).innerText()).toContain('Offline');

    const thumbs = section.locator('[data-testid^="camera-thumb-"]');
    await thumbs.first().waitFor();
    expect(await thumbs.first().innerText()).toContain(`${boxName} aisle`);
    // The thumbnail is the JPEG itself, fetched with the session.
    await expect.poll(() => thumbs.first().locator('img').evaluate(naturalWidth)).toBe(480);
    await thumbs.first().click();
    const large = page.getByTestId('camera-large');
    await large.waitFor();
    await expect.poll(() => large.evaluate(naturalWidth)).toBe(480);
    await shoot(page, 'cameras-large-en');
    await page.keyboard.press('Escape');
    await large.waitFor({ state: 'detached' });

    // Adding a camera: a stream with a password is refused on its field, app/stream is taken.
    await section.getByTestId('camera-add').click();
    const form = page.getByTestId('camera-form');
    await form.getByTestId('camera-name').fill('Gate');
    await form.getByTestId('camera-stream').fill('rtsp://admin:pw@10.0.0.5/1');
    await page.getByRole('button', { name: 'Save' }).click();
    await form.locator('.ant-form-item-explain-error').first().waitFor();
    await form.getByTestId('camera-stream').fill('live/fb-002-gate');
    await form.locator('.ant-form-item-explain-error').waitFor({ state: 'detached' });
    await clickUntilGone(page.getByRole('button', { name: 'Save' }), form);
    await expect.poll(() => rowWith(table, 'Gate').innerText()).toContain('Offline');

    await expectTranslated(section, ['camera', 'common', 'field']);
    await shoot(page, 'cameras-en');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a camera's latest snapshot as a data board's camera tile, also on a kiosk link", async () => {
    const cameras = await api.postJson<{ id: number; name: string }[]>(`${ZLM}/camera/list`, {
      area_id: areaId,
    });
    expect(cameras.code).toBe(1);
    const aisle = cameras.data.find((c) => c.name === `${boxName} aisle`)!;
    const saved = await api.postJson<{ id: number; camera_id: number }>('/index/fbox.board/save', {
      area_id: areaId,
      type: 'dataBoard',
      title: 'Gate wall',
      camera_id: aisle.id,
    });
    expect(saved.data.camera_id).toBe(aisle.id);
    const kiosk = await api.postJson<{ token: string }>('/index/fbox.board/kiosk_create', {
      area_id: areaId,
      id: saved.data.id,
    });
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/dataBoard?kiosk=${kiosk.data.token}`);
    const tile = page.getByTestId('board-camera');
    await tile.waitFor();
    expect(await tile.innerText()).toContain(`${boxName} aisle`);
    // The snapshot itself, read by the kiosk token (no session in this browser).
    await expect.poll(() => tile.getByTestId('board-camera-image').evaluate(naturalWidth)).toBe(480);
    await shoot(page, 'camera-tile-kiosk');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows them in Chinese', async () => {
    const { page, context, errors, section } = await openDetail('zh');
    const table = section.getByTestId('camera-table');
    expect(await section.innerText()).toContain('摄像头');
    await expect.poll(() => rowWith(table, `${boxName} aisle`).innerText()).toContain('在线');
    expect(await rowWith(table, `${boxName} door`).innerText()).toContain('离线');
    await section.locator('[data-testid^="camera-thumb-"]').first().waitFor();
    expect(await section.getByTestId('camera-gallery').innerText()).toContain('抓拍图片');
    await expectTranslated(section, ['camera', 'common', 'field']);
    await shoot(page, 'cameras-zh');
    expect(errors).toEqual([]);
    await context.close();
  });
});
