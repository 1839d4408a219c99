import type { DataBoard } from '@fbox/contracts';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../app/query-client';
import { resetPageTest } from '../../test-page';
import { DataBoardPage } from './DataBoardPage';

// 2026-11-25 02:00 UTC = 10:00 in UTC+8, the user's zone.
const at = Date.UTC(2026, 10, 25, 2);
const answer = (): DataBoard => ({
  board: {
    id: 5,
    area_id: 2,
    type: 'dataBoard',
    title: 'Hall A wall',
    fbox_ids: [3, 4],
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
  },
  fboxes: [
    { id: 3, name: 'Container 3', online: fbox3Online, hashrate: fbox3Online ? 1234.5 : 0 },
    { id: 4, name: 'Container 4', online: false, hashrate: 0 },
  ],
  fbox: { online: fbox3Online ? 1 : 0, offline: fbox3Online ? 1 : 2 },
  miner: { online: 180, offline: 20 },
  online_rate: 0.9,
  hashrate: 1234.5,
  theoretical: 1300,
  power_kw: -999,
  today_energy_kwh: 12_345,
  alerts: { 1: 2, 2: 0, 3: 5 },
  series: {
    bucket_ms: 3_600_000,
    points: [
      { ts: at - 3_600_000, hashrate: 1200, power_kw: null },
      { ts: at, hashrate: 1234.5, power_kw: 350 },
    ],
  },
  ...(revenue && { revenue }),
  ...(camera && { camera }),
  at,
});

/** The fake server's state: what it answers for the board, and whether it can be reached. */
let fbox3Online: boolean;
let revenue: DataBoard['revenue'];
let camera: DataBoard['camera'];
let boardCode: number;
let reachable: boolean;
const sent: string[] = [];

/** The live sockets the page opened, to push messages through. */
const sockets: FakeSocket[] = [];
class FakeSocket {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(readonly url: string) {
    sockets.push(this);
  }
  close() {}
}

beforeEach(() => {
  fbox3Online = true;
  revenue = undefined;
  camera = undefined;
  boardCode = 1;
  reachable = true;
  sent.length = 0;
  sockets.length = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = url.split('?')[0]!;
      sent.push(url);
      if (!reachable) throw new TypeError('Failed to fetch');
      if (path === '/ff-plat-api/api/zlm/capturedImage')
        return new Response(new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xd9])], { type: 'image/jpeg' }));
      if (path === '/index/fbox.board/kiosk_data')
        return Response.json({ code: 1, msg: 'ok', data: answer() });
      if (path === '/index/fbox.board/data')
        return Response.json(
          boardCode === 1
            ? { code: 1, msg: 'ok', data: answer() }
            : { code: boardCode, msg: 'Not found', data: null },
        );
      if (path === '/index/fbox.user/getuserinfo')
        return Response.json({
          code: 1,
          msg: 'ok',
          data: { username: 'ops', nickname: 'Ops', time_zone: 'UTC+8' },
        });
      return Response.json({ code: 1, msg: 'ok', data: null });
    }),
  );
});

afterEach(async () => {
  await resetPageTest();
  queryClient.clear();
});

const open = (address: string) =>
  render(
    <MemoryRouter initialEntries={[address]}>
      <DataBoardPage />
    </MemoryRouter>,
  );

const kpi = (name: string) => screen.getByTestId(`board-kpi-${name}`);

// antd's first render in jsdom takes seconds.
describe('DataBoardPage', () => {
  it("shows the board's figures as read, a dash where there is no reading", async () => {
    open('/dataBoard?id=5&area_id=2');
    expect((await screen.findByTestId('board-title')).textContent).toBe('Hall A wall');
    expect(sent.some((url) => url.startsWith('/index/fbox.board/data?') && url.includes('area_id=2'))).toBe(
      true,
    );
    expect(screen.getByTestId('board-scope').textContent).toBe('2 FBOXes');
    expect(kpi('hashrate').textContent).toContain('1.23 PH/s');
    expect(kpi('hashrate').textContent).toContain('95 % of theoretical');
    expect(kpi('theoretical').textContent).toContain('1.3 PH/s');
    expect(kpi('online-rate').textContent).toContain('90 %');
    expect(kpi('power').textContent).toBe('Power-');
    expect(kpi('energy').textContent).toContain('12.35 MWh');
    expect(kpi('miners').textContent).toContain('180/20');
    expect(screen.getByTestId('board-alerts-1').textContent).toBe('2Critical');
    expect(screen.getByTestId('board-alerts-3').textContent).toBe('5Minor');
    // Offline FBOXes first, each with its state.
    const grid = screen.getByTestId('board-fbox-grid');
    expect(
      within(grid)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Container 4', 'Container 3']);
    expect(within(screen.getByTestId('board-fbox-4')).getByRole('img', { name: 'Offline' })).toBeTruthy();
    // Times in the user's zone, read with the user info.
    await waitFor(() =>
      expect(screen.getByTestId('board-read-at').textContent).toBe('Figures read at 2026-11-25 10:00:00'),
    );
    expect(document.title).toBe('Hall A wall - FBOX Cloud System');
  });

  it("shows the mine's revenue today and yesterday when it has any, and no panel when it has none", async () => {
    open('/dataBoard?id=5&area_id=2');
    await screen.findByTestId('board-title');
    expect(screen.queryByTestId('board-revenue')).toBeNull();
    cleanup();
    queryClient.clear();
    revenue = {
      coin: 'BTC',
      fiat: 'USD',
      time_zone: 'UTC+8',
      today: { day: '2026-11-25', source: 'estimated', coin: 0.00000503, fiat: 0.48 },
      yesterday: { day: '2026-11-24', source: 'pool', coin: 0.00061081, fiat: 1058.03 },
    };
    open('/dataBoard?id=5&area_id=2');
    const panel = await screen.findByTestId('board-revenue');
    // The board covers two FBOXes: the revenue is the whole mine's, and says so.
    expect(within(panel).getByRole('heading').textContent).toBe('Revenuewhole mine');
    expect(screen.getByTestId('board-revenue-today').textContent).toBe(
      'TodayEstimated0.48 USD0.00000503 BTC',
    );
    expect(screen.getByTestId('board-revenue-yesterday').textContent).toBe(
      'YesterdayPool-reported1,058.03 USD0.00061081 BTC',
    );
  });

  it("shows the board's camera tile: the snapshot through the session, or on a kiosk link by its token", async () => {
    camera = { id: 7, name: 'Door', fbox_name: 'Container 3', image: { id: 41, taken_at: at } };
    open('/dataBoard?id=5&area_id=2');
    const tile = await screen.findByTestId('board-camera');
    expect(within(tile).getByRole('heading').textContent).toBe('DoorContainer 3');
    await waitFor(() =>
      expect(within(tile).getByTestId('board-camera-image').getAttribute('src')).toMatch(/^blob:/),
    );
    expect(
      sent.some(
        (url) => url.startsWith('/ff-plat-api/api/zlm/capturedImage?') && url.includes('area_id=2&id=41'),
      ),
    ).toBe(true);
    expect(within(tile).getByTestId('board-camera-time').textContent).toBe('Snapshot 2026-11-25 10:00:00');
    cleanup();
    queryClient.clear();

    const token = 'k'.repeat(43);
    open(`/dataBoard?kiosk=${token}`);
    const kioskTile = await screen.findByTestId('board-camera');
    expect(within(kioskTile).getByTestId('board-camera-image').getAttribute('src')).toBe(
      `/index/fbox.board/kiosk_camera_image?token=${token}&id=41`,
    );
    cleanup();
    queryClient.clear();

    camera = { id: 7, name: 'Door', fbox_name: 'Container 3', image: null };
    open('/dataBoard?id=5&area_id=2');
    expect((await screen.findByTestId('board-camera-none')).textContent).toBe('No snapshot yet');
  });

  it("follows the mine's live feed, and says so when the figures could not be refreshed", async () => {
    open('/dataBoard?id=5&area_id=2');
    await screen.findByTestId('board-title');
    expect(sockets.map((socket) => socket.url)).toEqual([expect.stringMatching(/\/ws\?area_id=2$/)]);
    fbox3Online = false;
    act(() =>
      sockets[0]!.onmessage?.({ data: JSON.stringify({ type: 'status', fboxId: 3, online: false }) }),
    );
    await waitFor(() => expect(kpi('fboxes').textContent).toContain('0/2'), { timeout: 3000 });

    reachable = false;
    await act(() => queryClient.refetchQueries({ queryKey: ['board'] }));
    await waitFor(() =>
      expect(screen.getByTestId('board-read-at').textContent).toMatch(/^Not refreshed: figures from /),
    );
    expect(kpi('fboxes').textContent).toContain('0/2');
  });

  it('says a board the server does not know is not found, with the way back to the list', async () => {
    boardCode = -3;
    open('/dataBoard?id=404&area_id=2');
    expect(await screen.findByText('Board not found')).toBeTruthy();
    expect(screen.getByTestId('board-back').getAttribute('href')).toBe('/board/boardList');
    expect(screen.queryByTestId('board-kpi-hashrate')).toBeNull();
  });

  it('asks nothing for an address without a board', async () => {
    open('/dataBoard');
    expect(await screen.findByText('Board not found')).toBeTruthy();
    expect(sent.some((url) => url.startsWith('/index/fbox.board/data'))).toBe(false);
  });
});
