import { type MinerLogExport, type MinerLogItem, operatorRules, type RuleList } from '@fbox/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { timeZoneStore } from '../../lib/time';
import { renderPage, resetPageTest } from '../../test-page';
import { MinerLogsPage } from './MinerLogsPage';
import { toPickerValue } from './window';

// 2026-11-25 02:00 UTC = 10:00 in UTC+8.
const at = Date.UTC(2026, 10, 25, 2);
const HOUR = 3_600_000;
const exportOf = (id: number, fields: Partial<MinerLogExport>): MinerLogExport => ({
  id,
  area_id: 1,
  scope: 'fbox',
  scope_label: 'Hydro 01',
  from: at - HOUR,
  to: at,
  status: 'finished',
  total: 10,
  done: 10,
  failed: 0,
  bytes: 3 * 1024 * 1024,
  created_by: 'admin',
  created_at: at,
  updated_at: at,
  expires_at: at + 7 * 24 * HOUR,
  ...fields,
});

const item = (miner_id: number, fields: Partial<MinerLogItem>): MinerLogItem => ({
  miner_id,
  sn: `SN${miner_id}`,
  worker: `w${miner_id}`,
  ip: `10.0.0.${miner_id}`,
  fbox_id: 3,
  fbox_name: 'Hydro 01',
  state: 'done',
  error: null,
  bytes: 2048,
  updated_at: at,
  ...fields,
});

const fboxes = [
  { id: 3, name: 'Hydro 01', kind: 'hydro' },
  { id: 4, name: 'Immersion 02', kind: 'immersion' },
];

const LOG = '/ff-plat-api/api/admin/log/export';

/** A request's parameters as the server receives them: a JSON body, or form fields, or the query. */
const paramsOf = (url: string, body: unknown): Record<string, unknown> => {
  if (typeof body === 'string')
    return body.startsWith('{') ? JSON.parse(body) : Object.fromEntries(new URLSearchParams(body));
  return Object.fromEntries(new URL(url, 'http://x').searchParams);
};

/** The page's calls, as a fake server records them. */
const sent: { path: string; body: Record<string, unknown> }[] = [];
let exports: MinerLogExport[];
let items: MinerLogItem[];
/** What the fake server answers a new export. */
let startAnswer: () => object;
/** The signed-in user's role and rules (`fbox.user/getrule`). */
let access: RuleList;

beforeEach(() => {
  sent.length = 0;
  access = { role: 'master', rules: [...operatorRules], all: [...operatorRules] };
  exports = [
    exportOf(2, {
      status: 'processing',
      done: 3,
      failed: 1,
      scope: 'group',
      scope_label: 'Hot rack',
      bytes: 900,
    }),
    exportOf(1, {}),
  ];
  items = [
    item(11, {}),
    item(12, { state: 'failed', error: 'FBOX offline', bytes: 0 }),
    item(13, { state: 'requested', bytes: 0 }),
  ];
  startAnswer = () => ({
    code: 1,
    msg: 'Export started',
    data: exportOf(3, { status: 'processing', done: 0 }),
  });
  timeZoneStore.set('UTC+8');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0]!;
      const body = paramsOf(url, init?.body);
      sent.push({ path, body });
      const page = <T,>(list: T[]) => ({
        code: 1,
        msg: 'ok',
        data: { items: list, total: list.length, page: 1, limit: 20 },
      });
      if (path === '/index/fbox.user/getrule') return Response.json({ code: 1, msg: 'ok', data: access });
      if (path === `${LOG}/list`) return Response.json(page(exports));
      if (path === `${LOG}/items`)
        return Response.json(page(body.state ? items.filter((i) => i.state === body.state) : items));
      if (path === LOG) return Response.json(startAnswer());
      if (path === `${LOG}/cancel`) return Response.json({ code: 1, msg: 'Modified', data: exports[0] });
      if (path === `${LOG}/delete`) return Response.json({ code: 1, msg: 'Modified', data: null });
      if (path === '/index/fbox.boxlist/getboxlist')
        return Response.json({ code: 1, msg: 'ok', data: fboxes });
      if (path === '/index/fbox.miner/index') return Response.json(page([]));
      if (path === '/index/fbox.oillist/index') return Response.json(page([]));
      return Response.json({ code: 1, msg: 'ok', data: null });
    }),
  );
});

afterEach(resetPageTest);

const writes = (path: string) => sent.filter((r) => r.path === path);
const rowOf = (id: number) => document.querySelector(`tr[data-row-key="${id}"]`) as HTMLElement;

/** Opens the new-export form with an FBOX chosen. */
const openForm = async () => {
  fireEvent.click(await screen.findByTestId('miner-logs-create', {}, { timeout: 5000 }));
  const form = await screen.findByTestId('miner-logs-form');
  const select = within(form).getByTestId('miner-logs-ids-fbox');
  fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
  fireEvent.click(await screen.findByTitle('Hydro 01'));
  return form;
};

/** Types a window into the range picker, as a user would: start, end, Enter. */
const typeWindow = (form: HTMLElement, from: number, to: number) => {
  // The picker's two inputs carry its test id.
  const [start, end] = within(form).getAllByTestId('miner-logs-form-window') as HTMLInputElement[];
  const text = (ms: number) => toPickerValue(ms, 'UTC+8').format('YYYY-MM-DD HH:mm');
  fireEvent.mouseDown(start!);
  fireEvent.focus(start!);
  fireEvent.change(start!, { target: { value: text(from) } });
  fireEvent.keyDown(start!, { key: 'Enter', code: 'Enter' });
  fireEvent.focus(end!);
  fireEvent.change(end!, { target: { value: text(to) } });
  fireEvent.keyDown(end!, { key: 'Enter', code: 'Enter' });
  return [start!, end!] as const;
};

const fieldOf = (form: HTMLElement, testId: string) =>
  within(form).getAllByTestId(testId)[0]!.closest('.ant-form-item') as HTMLElement;

// antd's first render in jsdom takes seconds.
describe('MinerLogsPage', () => {
  it('lists the exports with their window, what they picked, status, progress, counts and size', async () => {
    renderPage(<MinerLogsPage />);
    await screen.findByText('Hot rack', {}, { timeout: 5000 });
    const running = rowOf(2);
    expect(within(running).getByText('Miner groups')).toBeTruthy();
    expect(within(running).getByTestId('miner-logs-status').textContent).toBe('Processing');
    expect(within(running).getByTestId('miner-logs-progress').textContent).toContain('4/10');
    expect(within(running).getByText('900 B')).toBeTruthy();
    // Window in the user's zone: 09:00 – 10:00 in UTC+8.
    expect(within(running).getByTestId('miner-logs-window').textContent).toBe(
      '2026-11-25 09:00:002026-11-25 10:00:00',
    );
    expect(within(running).queryByTestId('miner-logs-download-2')).toBeNull();
    expect(within(running).getByTestId('miner-logs-cancel-2')).toBeTruthy();

    const done = rowOf(1);
    expect(within(done).getByTestId('miner-logs-status').textContent).toBe('Finished');
    expect(within(done).queryByTestId('miner-logs-progress')).toBeNull();
    expect(within(done).getByText('3.0 MB')).toBeTruthy();
    expect(within(done).getByTestId('miner-logs-download-1')).toBeTruthy();
    expect(within(done).queryByTestId('miner-logs-cancel-1')).toBeNull();
  });

  it('reads the list again every 2 s while an export processes, and stops once none does', async () => {
    renderPage(<MinerLogsPage />);
    await screen.findByText('Hot rack', {}, { timeout: 5000 });
    const reads = () => writes(`${LOG}/list`).length;
    const first = reads();
    exports = [
      exportOf(2, { status: 'finished', done: 9, failed: 1, scope: 'group', scope_label: 'Hot rack' }),
    ];
    await waitFor(() => expect(reads()).toBeGreaterThan(first), { timeout: 4000 });
    await waitFor(() =>
      expect(within(rowOf(2)).getByTestId('miner-logs-status').textContent).toBe('Finished'),
    );
    const settled = reads();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(reads()).toBe(settled);
  });

  it('explains the page when the mine has no exports yet', async () => {
    exports = [];
    renderPage(<MinerLogsPage />);
    const empty = await screen.findByTestId('miner-logs-empty', {}, { timeout: 5000 });
    expect(within(empty).getByText('No log exports yet')).toBeTruthy();
    expect(within(empty).getByTestId('miner-logs-create')).toBeTruthy();
  });

  it('refuses a window over 7 days on its field as typed, sending nothing, then starts a valid export', async () => {
    renderPage(<MinerLogsPage />);
    const form = await openForm();
    const now = Date.now();
    const [start, end] = typeWindow(form, now - 9 * 24 * HOUR, now - HOUR);
    fireEvent.click(screen.getByTestId('miner-logs-form-start'));
    const field = fieldOf(form, 'miner-logs-form-window');
    expect(await within(field).findByText('The window may span at most 7 days')).toBeTruthy();
    // What was typed stays as typed.
    expect(start.value).toBe(toPickerValue(now - 9 * 24 * HOUR, 'UTC+8').format('YYYY-MM-DD HH:mm'));
    expect(end.value).toBe(toPickerValue(now - HOUR, 'UTC+8').format('YYYY-MM-DD HH:mm'));
    expect(writes(LOG)).toEqual([]);

    typeWindow(form, now - 2 * HOUR, now - HOUR);
    fireEvent.click(screen.getByTestId('miner-logs-form-start'));
    await waitFor(() => expect(writes(LOG)).toHaveLength(1));
    const body = writes(LOG)[0]!.body;
    expect(body).toMatchObject({ scope: 'fbox', ids: [3] });
    // Minutes as typed: the seconds of now are not carried.
    expect(Math.abs((body.to as number) - (body.from as number) - HOUR)).toBeLessThan(60_000);
    await waitFor(() => expect(screen.queryByTestId('miner-logs-form')).toBeNull());
  });

  it("shows the server's field errors on their fields", async () => {
    startAnswer = () => ({
      code: -2,
      msg: 'Invalid',
      data: {
        errors: [
          { field: 'ids', rule: 'rule.noMinersMatch' },
          { field: 'from', rule: 'rule.windowFuture' },
        ],
      },
    });
    renderPage(<MinerLogsPage />);
    const form = await openForm();
    fireEvent.click(screen.getByTestId('miner-logs-form-start'));
    await waitFor(() => expect(writes(LOG)).toHaveLength(1));
    expect(await within(fieldOf(form, 'miner-logs-ids-fbox')).findByText('No miners match')).toBeTruthy();
    expect(
      await within(fieldOf(form, 'miner-logs-form-window')).findByText(
        'Start time must not be in the future',
      ),
    ).toBeTruthy();
    expect(screen.getByTestId('miner-logs-form')).toBeTruthy();
  });

  it('asks before canceling a processing export, then cancels it', async () => {
    renderPage(<MinerLogsPage />);
    fireEvent.click(await screen.findByTestId('miner-logs-cancel-2', {}, { timeout: 5000 }));
    const question = await screen.findByText('Cancel export #2?');
    expect(writes(`${LOG}/cancel`)).toEqual([]);
    const popup = question.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(popup).getByRole('button', { name: 'Cancel export' }));
    await waitFor(() => expect(writes(`${LOG}/cancel`)).toHaveLength(1));
    expect(writes(`${LOG}/cancel`)[0]!.body).toMatchObject({ id: 2 });
  });

  it('asks before deleting an export, saying a processing one is canceled, then deletes it', async () => {
    renderPage(<MinerLogsPage />);
    fireEvent.click(await screen.findByTestId('miner-logs-delete-2', {}, { timeout: 5000 }));
    const question = await screen.findByText('Delete export #2?');
    const popup = question.closest('.ant-popover') as HTMLElement;
    expect(within(popup).getByText(/still running: it is canceled/)).toBeTruthy();
    expect(writes(`${LOG}/delete`)).toEqual([]);
    fireEvent.click(within(popup).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(writes(`${LOG}/delete`)).toHaveLength(1));
    expect(writes(`${LOG}/delete`)[0]!.body).toMatchObject({ id: 2 });
  });

  it('lets an operator without Miner control follow and download exports, but not start, cancel or delete them', async () => {
    access = { role: 'operator', rules: ['tankControl'], all: [...operatorRules] };
    renderPage(<MinerLogsPage />);
    expect(await screen.findByTestId('miner-logs-details-2', {}, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('miner-logs-download-1')).toBeTruthy();
    expect(screen.queryByTestId('miner-logs-create')).toBeNull();
    expect(screen.queryByTestId('miner-logs-cancel-2')).toBeNull();
    expect(screen.queryByTestId('miner-logs-delete-1')).toBeNull();
  });

  it("lists an export's miners in the details, failures with their reason, filtered by state", async () => {
    renderPage(<MinerLogsPage />);
    fireEvent.click(await screen.findByTestId('miner-logs-details-2', {}, { timeout: 5000 }));
    const drawer = await screen.findByTestId('miner-logs-items');
    expect(await within(drawer).findByText('SN12')).toBeTruthy();
    expect(within(drawer).getByText('FBOX offline')).toBeTruthy();
    expect(within(drawer).getByText('10 in total, 3 done, 1 failed')).toBeTruthy();
    // The export processes: its miners are read again (every 2 s).
    const reads = writes(`${LOG}/items`).length;
    await waitFor(() => expect(writes(`${LOG}/items`).length).toBeGreaterThan(reads), { timeout: 4000 });
    fireEvent.click(within(within(drawer).getByTestId('miner-logs-items-state')).getByText('Failed'));
    await waitFor(() => expect(within(drawer).queryByText('SN11')).toBeNull());
    expect(writes(`${LOG}/items`).at(-1)!.body).toMatchObject({ id: 2, state: 'failed', page: 1 });
    expect(within(drawer).getByText('SN12')).toBeTruthy();
  });

  it('shows the page in Chinese', async () => {
    await changeLanguage('zh');
    renderPage(<MinerLogsPage />);
    await screen.findByText('Hot rack', {}, { timeout: 5000 });
    expect(within(rowOf(2)).getByTestId('miner-logs-status').textContent).toBe('处理中');
    expect(screen.getAllByText('所选矿机').length).toBeGreaterThan(0);
  });
});
