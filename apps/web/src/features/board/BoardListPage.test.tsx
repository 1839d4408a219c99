import { type Board, operatorRules, type RuleList } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { accessKeys } from '../../lib/access';
import { changeLanguage } from '../../lib/i18n';
import { timeZoneStore } from '../../lib/time';
import { renderPage, resetPageTest } from '../../test-page';
import { BoardListPage } from './BoardListPage';

// 2026-11-25 02:00 UTC = 10:00 in UTC+8.
const at = Date.UTC(2026, 10, 25, 2);
const board = (id: number, title: string, fbox_ids: number[]): Board => ({
  id,
  area_id: 1,
  type: 'dataBoard',
  title,
  fbox_ids,
  theme: 'dark',
  metric: 'status',
  page_seconds: 20,
  test_hours: 24,
  pass_ratio: 90,
  max_chip_temp: 85,
  camera_id: null,
  kiosk_created_at: null,
  created_at: at,
  updated_at: at,
});

const fboxes = [
  { id: 3, name: 'Container 3', kind: 'immersion' },
  { id: 4, name: 'Container 4', kind: 'air' },
];

/** A form body as the server receives it: its fields as text. */
const bodyOf = (body: unknown): Record<string, unknown> =>
  typeof body === 'string' ? Object.fromEntries(new URLSearchParams(body)) : {};

/** The page's calls, as a fake server records them. */
const sent: { path: string; body: Record<string, unknown> }[] = [];
let boards: Board[];
let access: RuleList;
/** What the fake server answers a save: the saved board, or a refusal. */
let saveAnswer: () => object;

beforeEach(() => {
  sent.length = 0;
  boards = [board(1, 'Hall A', []), board(2, 'Row 3', [3, 4])];
  access = { role: 'master', rules: [...operatorRules], all: [...operatorRules] };
  saveAnswer = () => ({ code: 1, msg: 'Modified', data: board(9, 'x', []) });
  timeZoneStore.set('UTC+8');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0]!;
      sent.push({ path, body: bodyOf(init?.body) });
      if (path === '/index/fbox.board/index')
        return Response.json({
          code: 1,
          msg: 'ok',
          data: { items: boards, total: boards.length, page: 1, limit: 100 },
        });
      if (path === '/index/fbox.boxlist/getboxlist')
        return Response.json({ code: 1, msg: 'ok', data: fboxes });
      if (path === '/index/fbox.user/getrule') return Response.json({ code: 1, msg: 'ok', data: access });
      if (path === '/ff-plat-api/api/zlm/camera/list')
        return Response.json({
          code: 1,
          msg: 'ok',
          data: [{ id: 7, fbox_id: 4, name: 'Door', stream: 'live/door', created_at: 0, updated_at: 0 }],
        });
      if (path === '/index/fbox.board/save') return Response.json(saveAnswer());
      if (path === '/index/fbox.board/kiosk_create')
        return Response.json({
          code: 1,
          msg: 'Modified',
          data: { board: { ...boards[0], kiosk_created_at: 1 }, token: KIOSK },
        });
      return Response.json({ code: 1, msg: 'ok', data: null });
    }),
  );
});

afterEach(resetPageTest);

const writes = (path: string) => sent.filter((r) => r.path === path);
const KIOSK = 'k'.repeat(43);

// antd's first render in jsdom takes seconds.
describe('BoardListPage', () => {
  it('lists the boards with their type, the FBOXes they cover and a link opening each in a new tab', async () => {
    renderPage(<BoardListPage />);
    expect(await screen.findByText('Hall A')).toBeTruthy();
    const hallA = screen.getByText('Hall A').closest('tr') as HTMLElement;
    expect(within(hallA).getByText('Data board')).toBeTruthy();
    expect(within(hallA).getByText('All FBOXes')).toBeTruthy();
    expect(within(hallA).getByText('Dark')).toBeTruthy();
    expect(within(hallA).getByText('2026-11-25 10:00:00')).toBeTruthy();
    const row3 = screen.getByText('Row 3').closest('tr') as HTMLElement;
    expect(await within(row3).findByText('Container 3')).toBeTruthy();
    expect(within(row3).getByText('Container 4')).toBeTruthy();
    const open = screen.getByTestId('board-open-2');
    expect(open.getAttribute('href')).toBe('/dataBoard?id=2&area_id=1');
    expect(open.getAttribute('target')).toBe('_blank');
    expect(open.getAttribute('rel')).toContain('noopener');
  });

  it('refuses an empty title on the field, sending nothing, then creates the board with its FBOXes', async () => {
    renderPage(<BoardListPage />);
    fireEvent.click(await screen.findByTestId('board-create', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('board-form');
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(writes('/index/fbox.board/save')).toEqual([]);

    fireEvent.change(within(form).getByTestId('board-title'), { target: { value: 'Hall B' } });
    const select = within(form).getByTestId('board-fboxes');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    fireEvent.click(await screen.findByTitle('Container 4'));
    fireEvent.click(screen.getByText('Light'));
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(writes('/index/fbox.board/save')).toHaveLength(1));
    expect(writes('/index/fbox.board/save')[0]!.body).toEqual({
      output: 'json',
      area_id: expect.any(String),
      type: 'dataBoard',
      title: 'Hall B',
      fbox_ids: '4',
      theme: 'light',
      metric: 'status',
      page_seconds: '20',
      test_hours: '24',
      pass_ratio: '90',
      max_chip_temp: '85',
      camera_id: '',
    });
    await waitFor(() => expect(screen.queryByTestId('board-form')).toBeNull());
  });

  it("offers a data board the mine's cameras for its camera tile, by FBOX and name", async () => {
    renderPage(<BoardListPage />);
    fireEvent.click(await screen.findByTestId('board-create', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('board-form');
    fireEvent.change(within(form).getByTestId('board-title'), { target: { value: 'Gate wall' } });
    const select = within(form).getByTestId('board-camera');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    fireEvent.click(await screen.findByTitle('Container 4 · Door'));
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(writes('/index/fbox.board/save')).toHaveLength(1));
    expect(writes('/index/fbox.board/save')[0]!.body).toMatchObject({ type: 'dataBoard', camera_id: '7' });
  });

  it('asks a miner board what colours its cells and how long a page shows, refusing seconds out of range as typed', async () => {
    renderPage(<BoardListPage />);
    fireEvent.click(await screen.findByTestId('board-create', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('board-form');
    // The data board has neither field.
    expect(within(form).queryByTestId('board-metric')).toBeNull();
    const type = within(form).getByTestId('board-type');
    fireEvent.mouseDown(type.querySelector('.ant-select-selector') ?? type);
    fireEvent.click(await screen.findByTitle('Miner board'));
    fireEvent.change(within(form).getByTestId('board-title'), { target: { value: 'Site map' } });
    const metric = await within(form).findByTestId('board-metric');
    fireEvent.mouseDown(metric.querySelector('.ant-select-selector') ?? metric);
    fireEvent.click(await screen.findByTitle('Chip temperature'));
    const seconds = within(form).getByTestId('board-page-seconds') as HTMLInputElement;
    fireEvent.change(seconds, { target: { value: '3' } });
    fireEvent.blur(seconds);
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(await screen.findByText('Seconds per page must be a number from 5 to 300')).toBeTruthy();
    expect(seconds.value).toBe('3');
    expect(writes('/index/fbox.board/save')).toEqual([]);

    fireEvent.change(seconds, { target: { value: '45' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(writes('/index/fbox.board/save')).toHaveLength(1));
    expect(writes('/index/fbox.board/save')[0]!.body).toMatchObject({
      type: 'minerBoard',
      title: 'Site map',
      metric: 'chip_temp',
      page_seconds: '45',
    });
  });

  it('asks a commissioning board for its test, refusing a window out of range as typed', async () => {
    renderPage(<BoardListPage />);
    fireEvent.click(await screen.findByTestId('board-create', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('board-form');
    expect(within(form).queryByTestId('board-test-hours')).toBeNull();
    const type = within(form).getByTestId('board-type');
    fireEvent.mouseDown(type.querySelector('.ant-select-selector') ?? type);
    fireEvent.click(await screen.findByTitle('Miner commissioning board'));
    fireEvent.change(within(form).getByTestId('board-title'), { target: { value: 'New FBOX' } });
    const hours = (await within(form).findByTestId('board-test-hours')) as HTMLInputElement;
    expect(hours.value).toBe('24');
    expect((within(form).getByTestId('board-pass-ratio') as HTMLInputElement).value).toBe('90');
    expect(within(form).queryByTestId('board-metric')).toBeNull();
    fireEvent.change(hours, { target: { value: '200' } });
    fireEvent.blur(hours);
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    expect(await screen.findByText('Test window must be a number from 1 to 168')).toBeTruthy();
    expect(hours.value).toBe('200');
    expect(writes('/index/fbox.board/save')).toEqual([]);

    fireEvent.change(hours, { target: { value: '48' } });
    fireEvent.change(within(form).getByTestId('board-max-chip-temp'), { target: { value: '80' } });
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(writes('/index/fbox.board/save')).toHaveLength(1));
    expect(writes('/index/fbox.board/save')[0]!.body).toMatchObject({
      type: 'minerBoardTest',
      test_hours: '48',
      pass_ratio: '90',
      max_chip_temp: '80',
    });
  });

  it("shows the server's refusal of a chosen FBOX on the FBOX field", async () => {
    saveAnswer = () => ({
      code: -2,
      msg: 'Invalid',
      data: { errors: [{ field: 'fbox_ids.0', rule: 'rule.invalid', message: 'rule.invalid' }] },
    });
    renderPage(<BoardListPage />);
    fireEvent.click(await screen.findByTestId('board-edit-2', {}, { timeout: 5000 }));
    const form = await screen.findByTestId('board-form');
    fireEvent.click(screen.getByRole('button', { name: /save/i }));
    await waitFor(() => expect(writes('/index/fbox.board/save')).toHaveLength(1));
    expect(writes('/index/fbox.board/save')[0]!.body).toMatchObject({ id: '2', fbox_ids: '3,4' });
    const field = within(form).getByTestId('board-fboxes').closest('.ant-form-item') as HTMLElement;
    expect(await within(field).findByText(/is invalid/i)).toBeTruthy();
  });

  it('asks before deleting a board, then deletes it', async () => {
    renderPage(<BoardListPage />);
    fireEvent.click(await screen.findByTestId('board-delete-1', {}, { timeout: 5000 }));
    const question = await screen.findByText('Delete the board “Hall A”?');
    expect(writes('/index/fbox.board/deleted')).toEqual([]);
    const popup = question.closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(popup).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(writes('/index/fbox.board/deleted')).toHaveLength(1));
    expect(writes('/index/fbox.board/deleted')[0]!.body).toMatchObject({ id: '1' });
  });

  it('lets an operator open boards but not create, edit or delete them', async () => {
    access = { role: 'operator', rules: [...operatorRules], all: [...operatorRules] };
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <BoardListPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(await screen.findByTestId('board-open-1')).toBeTruthy();
    // Nothing is offered before the rules are known: look once the page has them.
    await waitFor(() => expect(client.getQueryState(accessKeys.rules())?.status).toBe('success'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByTestId('board-create')).toBeNull();
    expect(screen.queryByTestId('board-edit-1')).toBeNull();
    expect(screen.queryByTestId('board-kiosk-1')).toBeNull();
    expect(screen.queryByTestId('board-delete-1')).toBeNull();
  });

  it('says there are no boards yet, and how to make one, in Chinese', async () => {
    boards = [];
    await changeLanguage('zh');
    renderPage(<BoardListPage />);
    expect(await screen.findByText('暂无看板')).toBeTruthy();
    expect(await screen.findByText('点击“新建看板”创建，然后在监控室的大屏上打开。')).toBeTruthy();
  });

  it('makes a kiosk link and shows its address once', async () => {
    renderPage(<BoardListPage />);
    fireEvent.click(await screen.findByTestId('board-kiosk-1', {}, { timeout: 5000 }));
    const dialog = await screen.findByTestId('kiosk-dialog');
    expect(within(dialog).getByTestId('kiosk-state').textContent).toBe('This board has no kiosk link.');
    fireEvent.click(within(dialog).getByTestId('kiosk-create'));
    const link = (await within(dialog).findByTestId('kiosk-link')) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}/dataBoard?kiosk=${KIOSK}`);
    expect(writes('/index/fbox.board/kiosk_create')[0]!.body).toMatchObject({ id: '1' });
    expect(within(dialog).getByText('Copy the link now: it is shown only this once.')).toBeTruthy();
  });
});
