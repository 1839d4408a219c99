import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Api, dataOf, demoMineId, LIVE_TIMEOUT, type ListPage, signInApi } from '../lib/api.js';
import { launchBrowser } from '../lib/browser.js';
import { choose, confirmOk, expectTranslated, numberIn, rowWith, signedIn } from '../lib/page.js';
import { type RunningServer, startServer } from '../lib/server.js';

/**
 * Automation end to end against the built server and its demo simulator (DEMO=1): a miner group is
 * built in the group editor, a reboot task created in the form acts on the group's miners (every demo
 * miner is below the 1000 TH/s condition, so they all "sag" below it), its run shows in the history
 * and its detail exports as CSV; a temperature task is created and stopped. Everything by clicking.
 */

let server: RunningServer;
let browser: Browser;
let api: Api;
let areaId = 0;
/** Two online miners of the demo mine whose SN matches no other miner, picked through the API. */
const picked: { id: number; worker: string; sn: string }[] = [];

/** Condition 30 s + evaluations + the restart's acknowledgement, with slack for a loaded machine. */
const ACT_TIMEOUT = 150_000;

interface MinerRow {
  id: number;
  worker: string;
  sn: string;
  status: 'online' | 'offline';
}

/** A platform call (POST, JSON) in the demo mine. */
const platform = async <T>(path: string, body: object): Promise<T> => {
  const url = `/ff-plat-api/api/${path}`;
  return dataOf(url, await api.postJson<T>(url, { area_id: areaId, ...body }));
};

const TASK_TEXTS = ['app', 'common', 'device', 'field', 'rule', 'api', 'task', 'taskStatus'];

/** The input of an InputNumber/DurationInput test id (antd puts the id on the input or its wrapper). */
const inputOf = (page: Page, testId: string) =>
  page.locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  api = await signInApi(server);
  areaId = await demoMineId(api);
  const deadline = Date.now() + LIVE_TIMEOUT;
  for (;;) {
    const miners = await api.get<ListPage<MinerRow>>('/index/fbox.miner/index', {
      area_id: areaId,
      limit: 50,
    });
    const online = miners.items.filter((miner) => miner.status === 'online');
    if (online.length >= 3) {
      // The picker's search is "contains": take miners whose SN finds only themselves.
      for (const { id, worker, sn } of online) {
        const found = await api.get<ListPage<MinerRow>>('/index/fbox.miner/index', {
          area_id: areaId,
          keyword: sn,
          limit: 1,
        });
        if (found.total === 1) picked.push({ id, worker, sn });
        if (picked.length === 2) break;
      }
      if (picked.length === 2) break;
      picked.length = 0;
    }
    if (Date.now() > deadline) throw new Error(`no telemetry within ${LIVE_TIMEOUT} ms:\n${server.logs()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const GROUP = 'E2E sagging rack';
const TASK = 'E2E reboot sagging miners';

describe('tasks', () => {
  it('builds a miner group in the group editor, one miner selected and one by "all matching"', async () => {
    const { page, context, errors } = await signedIn(browser, server);
    await page.goto(`${server.url}/task/groups`);
    const groups = page.getByTestId('group-table');
    await groups.waitFor();
    await page.getByTestId('group-create').click();
    await page.getByTestId('group-form-name').fill(GROUP);
    // Keyboard: Enter in the field saves.
    await page.getByTestId('group-form-name').press('Enter');
    const row = rowWith(groups, GROUP);
    await row.waitFor();

    await row.getByTestId('group-open').click();
    await page.waitForURL(/\/task\/groupEdit\?id=\d+&type=miner_reboot/);
    expect(await page.getByTestId('group-name').innerText()).toBe(GROUP);
    expect(await page.getByTestId('group-miner-count').innerText()).toBe('0');
    const miners = page.getByTestId('group-miner-table');

    // The first miner: found by its SN, ticked, "Add selected".
    const [first, second] = picked;
    if (!first || !second) throw new Error('no miners picked');
    await inputOf(page, 'group-filter-keyword').fill(first.sn);
    await inputOf(page, 'group-filter-keyword').press('Enter');
    const firstRow = miners.locator(`tbody tr[data-row-key="${first.id}"]`);
    await firstRow.locator('input[type="checkbox"]').check();
    await page.getByTestId('group-add-selected').click();
    await expect.poll(() => page.getByTestId('group-miner-count').innerText()).toBe('1');
    await firstRow.getByTestId('miner-in-group').waitFor();

    // The second: every miner matching its SN, after a confirmation that says how many.
    await inputOf(page, 'group-filter-keyword').fill(second.sn);
    await inputOf(page, 'group-filter-keyword').press('Enter');
    await miners.locator(`tbody tr[data-row-key="${second.id}"]`).waitFor();
    await page.getByTestId('group-add-all').click();
    await page.getByTestId('group-confirm-ok').waitFor();
    expect(numberIn(await page.locator('.ant-modal-confirm-content').innerText())).toBe(1);
    await confirmOk(page.getByTestId('group-confirm-ok'));
    await expect.poll(() => page.getByTestId('group-miner-count').innerText()).toBe('2');

    // Membership "in group" lists exactly those two.
    // Clearing the search (its clear icon searches again with no text).
    await page.getByTestId('group-miners-search').locator('.ant-input-clear-icon').click();
    await page.getByTestId('group-filter-member').getByText('In group', { exact: true }).click();
    await expect
      .poll(async () =>
        (
          await miners
            .locator('tbody tr[data-row-key]')
            .evaluateAll((els) => els.map((el) => el.getAttribute('data-row-key')))
        )
          .map(Number)
          .sort(),
      )
      .toEqual([first.id, second.id].sort());
    await expectTranslated(page.locator('body'), TASK_TEXTS);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('creates a reboot task in the form, watches it restart the sagging miners, opens history and detail, exports CSV', async () => {
    const { page, context, errors } = await signedIn(browser, server);
    await page.goto(`${server.url}/task/rebootTask`);
    const queue = page.getByTestId('reboot-queue-miner');
    await queue.waitFor();

    await page.getByTestId('task-create').click();
    const form = page.getByTestId('reboot-task-form');
    await form.waitFor();
    // Saving an empty form names what is missing and sends nothing.
    await page.getByTestId('task-form-save').click();
    await form.getByText('Task name is required').waitFor();
    await form.getByText('Choose at least one miner group').waitFor();

    await page.getByTestId('task-form-name').fill(TASK);
    await choose(page, page.getByTestId('task-form-groups'), `${GROUP} (2 miners)`);
    // Every demo miner (≤ 390 TH/s) is below 1000 TH/s: the whole group qualifies.
    await inputOf(page, 'task-form-hashrate').fill('1000');
    await choose(page, page.getByTestId('task-form-duration-unit'), 'seconds');
    await inputOf(page, 'task-form-duration').fill('30');
    await inputOf(page, 'task-form-limit').fill('1');
    await inputOf(page, 'task-form-limit').press('Enter');
    await form.waitFor({ state: 'hidden' });

    const row = rowWith(queue, TASK);
    await row.waitFor();
    expect(await row.getByTestId('task-status').getAttribute('data-status')).toBe('running');
    expect(await row.innerText()).toContain('below 1 PH/s for 30 s');
    // The queue refreshes by itself (every 10 s): the actions show up without a reload.
    await expect
      .poll(async () => numberIn(await row.getByTestId('task-action-count').innerText()), {
        timeout: ACT_TIMEOUT,
        interval: 1000,
        message: `task should act:\n${server.logs().slice(-2000)}`,
      })
      .toBe(2);

    // A group in use cannot be deleted: the server says which task uses it.
    await page.goto(`${server.url}/task/groups`);
    const groupRow = rowWith(page.getByTestId('group-table'), GROUP);
    await groupRow.getByTestId('group-delete').click();
    await page.locator('.ant-popconfirm:visible').getByRole('button', { name: 'Delete' }).click();
    await page.locator('.ant-message').getByText(TASK, { exact: false }).waitFor();
    expect(await groupRow.count()).toBe(1);

    // History: a run of the task, finished, its detail acknowledged by the gateway.
    await page.goto(`${server.url}/task/rebootTask?view=history`);
    const history = page.getByTestId('reboot-miner-history');
    const run = rowWith(history, TASK).first();
    await run.waitFor({ timeout: LIVE_TIMEOUT });
    await expect
      .poll(async () => (await run.innerText()).includes('In progress'), { timeout: LIVE_TIMEOUT })
      .toBe(false);
    await run.getByTestId('run-detail').click();
    const detail = page.getByTestId('reboot-miner-detail');
    await detail.locator('tbody tr[data-row-key]').first().waitFor();
    expect(await page.getByTestId('reboot-miner-detail-title').innerText()).toContain(TASK);
    const outcomes = () =>
      detail
        .locator('tbody tr[data-row-key] [data-status]')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-status')));
    await expect
      .poll(async () => (await outcomes()).every((status) => status === 'acknowledged'), {
        timeout: LIVE_TIMEOUT,
      })
      .toBe(true);
    expect(await detail.innerText()).toContain('Restart');

    // The task's whole detail (from its queue row): both miners restarted once.
    await page.getByTestId('view-queue').click();
    await rowWith(page.getByTestId('reboot-queue-miner'), TASK).getByTestId('task-detail').click();
    await expect.poll(() => detail.locator('tbody tr[data-row-key]').count()).toBe(2);
    await expect.poll(outcomes, { timeout: LIVE_TIMEOUT }).toEqual(['acknowledged', 'acknowledged']);
    const detailText = await detail.innerText();
    for (const miner of picked) expect(detailText).toContain(miner.worker);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('detail-export-csv').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    for (const miner of picked) expect(csv).toContain(miner.worker);
    expect(errors).toEqual([]);
    await context.close();
  }, 300_000);

  it('creates a temperature task and stops it after a confirmation', async () => {
    const group = await platform<{ id: number }>('minerGroup/add', {
      name: 'E2E hot tanks',
      type: 'temp_mode',
    });
    await platform('minerGroup/addMiner', { group_id: group.id, miner_ids: [picked[0]?.id] });

    const { page, context, errors } = await signedIn(browser, server);
    await page.goto(`${server.url}/task/modeTask`);
    const queue = page.getByTestId('temp-queue');
    await queue.waitFor();
    await page.getByTestId('task-create').click();
    const form = page.getByTestId('temp-task-form');
    await form.waitFor();
    await page.getByTestId('task-form-name').fill('E2E hot tank guard');
    await choose(page, page.getByTestId('task-form-groups'), 'E2E hot tanks (1 miner)');
    await inputOf(page, 'task-form-threshold').fill('80');
    await page.getByTestId('task-form-save').click();
    await form.waitFor({ state: 'hidden' });

    const row = rowWith(queue, 'E2E hot tank guard');
    await row.waitFor();
    expect(await row.getByTestId('task-status').getAttribute('data-status')).toBe('running');
    expect(await row.getByTestId('task-start').count()).toBe(0);
    await row.getByTestId('task-stop').click();
    await confirmOk(page.getByTestId('task-stop-ok'));
    await expect
      .poll(() => row.getByTestId('task-status').getAttribute('data-status'), { timeout: 10_000 })
      .toBe('stopped');
    expect(await row.getByTestId('task-status').innerText()).toBe('Stopped');
    // A stopped task can be started again, not stopped twice.
    await row.getByTestId('task-start').waitFor();
    expect(await row.getByTestId('task-stop').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);

  it('shows the task screens in Chinese without untranslated keys', async () => {
    const { page, context, errors } = await signedIn(browser, server, 'zh');
    for (const [path, testId] of [
      ['/task/groups', 'group-table'],
      ['/task/rebootTask', 'reboot-queue-miner'],
      ['/task/rebootTask?kind=pdu', 'reboot-queue-pdu'],
      ['/task/modeTask', 'temp-queue'],
    ] as const) {
      await page.goto(`${server.url}${path}`);
      await page.getByTestId(testId).locator('tbody tr:not(.ant-table-measure-row)').first().waitFor();
      const body = page.locator('body');
      await expectTranslated(body, TASK_TEXTS);
      expect(await body.innerText()).toMatch(/[\u4e00-\u9fff]/);
    }
    await page.goto(`${server.url}/task/modeTask`);
    await rowWith(page.getByTestId('temp-queue'), 'E2E hot tank guard').getByText('已停止').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 150_000);
});
