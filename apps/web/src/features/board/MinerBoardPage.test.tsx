import type { BoardMetric, MinerBoard } from '@fbox/contracts';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../app/query-client';
import { resetPageTest } from '../../test-page';
import { MinerBigScreenPage, MinerBoardPage } from './MinerBoardPage';
import { mapMetrics, pageFboxes, pitchLimits } from './miner-layout';
import { buildSiteMap, layoutShape } from './site-map';

// 2026-11-25 02:00 UTC = 10:00 in UTC+8, the user's zone.
const at = Date.UTC(2026, 10, 25, 2);
type Miner = MinerBoard['miners'][number];

const miner = (
  id: number,
  fbox_id: number,
  tank_no: number | null,
  slot: number | null,
  readings: Partial<Miner> = {},
): Miner => ({
  id,
  fbox_id,
  tank_no,
  slot,
  sn: `SN${id}`,
  worker: `acct.${id}`,
  ip: `10.0.0.${id}`,
  model: 'Antminer S21',
  online: true,
  fault: '',
  chip_max_temp: 55,
  hashrate: 190,
  theoretical: 200,
  power_w: 3500,
  ...readings,
});

/** The fake server's state: the board's metric and pace, its miners, whether it exists. */
let metric: BoardMetric;
let pageSeconds: number;
let miners: Miner[];
let fboxes: MinerBoard['fboxes'];
let boardCode: number;
const sent: string[] = [];

const answer = (): MinerBoard => ({
  board: {
    id: 7,
    area_id: 2,
    type: 'minerBoard',
    title: 'Site map',
    fbox_ids: [],
    theme: 'dark',
    metric,
    page_seconds: pageSeconds,
    test_hours: 24,
    pass_ratio: 90,
    max_chip_temp: 85,
    camera_id: null,
    kiosk_created_at: null,
    created_at: at,
    updated_at: at,
  },
  fboxes,
  miners,
  at,
});

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
  metric = 'status';
  pageSeconds = 20;
  boardCode = 1;
  sent.length = 0;
  sockets.length = 0;
  fboxes = [
    {
      id: 3,
      name: 'Immersion 01',
      online: true,
      tanks: [
        { id: 31, no: 1, name: 'Tank 1' },
        { id: 32, no: 2, name: 'Tank 2' },
      ],
    },
    { id: 4, name: 'Air 01', online: false, tanks: [] },
  ];
  // Out of slot order, as a server may send them.
  miners = [
    miner(11, 3, 1, 3, { chip_max_temp: 88 }),
    miner(12, 3, 1, 1, { fault: 'fan', chip_max_temp: 78 }),
    miner(13, 3, 1, 2, { chip_max_temp: 62 }),
    miner(14, 3, 2, 1, { online: false }),
    miner(15, 3, null, null, { chip_max_temp: -999 }),
    miner(21, 4, null, 2),
    miner(22, 4, null, 1),
  ];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = url.split('?')[0]!;
      sent.push(url);
      if (path === '/index/fbox.board/miners')
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
  vi.restoreAllMocks();
  await resetPageTest();
  queryClient.clear();
});

const open = (address: string, page = <MinerBoardPage />) =>
  render(<MemoryRouter initialEntries={[address]}>{page}</MemoryRouter>);

/** The cells of a group (a tank's, or outside tanks), as miner ids in the order drawn. */
const cellIds = (root: HTMLElement) =>
  Array.from(root.querySelectorAll<HTMLElement>('[data-miner]')).map((cell) => Number(cell.dataset.miner));
const groupOf = (fboxId: number, title: string) =>
  within(screen.getByTestId(`miner-board-fbox-${fboxId}`)).getByText(title).parentElement as HTMLElement;
const colour = (minerId: number) => screen.getByTestId(`miner-cell-${minerId}`).dataset.colour;

// antd's first render in jsdom takes seconds.
describe('MinerBoardPage', () => {
  it('draws each FBOX with its tanks, their miners in slot order, and those outside tanks, coloured by status', async () => {
    open('/minerBoard?id=7&area_id=2');
    expect((await screen.findByTestId('board-title')).textContent).toBe('Site map');
    expect(sent.some((url) => url.startsWith('/index/fbox.board/miners?') && url.includes('id=7'))).toBe(
      true,
    );
    const map = screen.getByTestId('miner-board-map');
    expect(cellIds(map)).toHaveLength(miners.length);
    expect(cellIds(groupOf(3, 'Tank 1'))).toEqual([12, 13, 11]);
    expect(cellIds(groupOf(3, 'Tank 2'))).toEqual([14]);
    expect(cellIds(groupOf(3, 'Outside tanks'))).toEqual([15]);
    expect(cellIds(groupOf(4, 'Outside tanks'))).toEqual([22, 21]);
    expect(
      within(screen.getByTestId('miner-board-fbox-4')).getByRole('img', { name: 'Offline' }),
    ).toBeTruthy();
    expect([11, 12, 14].map(colour)).toEqual(['online', 'fault', 'offline']);
    const legend = screen.getByTestId('miner-board-legend');
    expect(legend.textContent).toBe('StatusOnlineFaultOffline');
    // All on one page: no page indicator.
    expect(screen.queryByTestId('miner-board-page')).toBeNull();
    await waitFor(() =>
      expect(screen.getByTestId('board-read-at').textContent).toBe('Figures read at 2026-11-25 10:00:00'),
    );
    expect(document.title).toBe('Site map - FBOX Cloud System');
  });

  it('colours by chip temperature in its bands, and says the bands in the legend', async () => {
    metric = 'chip_temp';
    open('/minerBoard?id=7&area_id=2');
    await screen.findByTestId('miner-board-map');
    expect([13, 12, 11, 15, 14, 21].map(colour)).toEqual(['warm', 'hot', 'critical', 'none', 'none', 'ok']);
    expect(screen.getByTestId('miner-board-legend').textContent).toBe(
      'Chip temperature< 60 °C60 °C – 75 °C75 °C – 85 °C≥ 85 °CNo data',
    );
  });

  it('shows a miner beside its cell on hover, with a dash for a missing reading', async () => {
    open('/minerBoard?id=7&area_id=2');
    const map = await screen.findByTestId('miner-board-map');
    expect(screen.queryByTestId('miner-board-popover')).toBeNull();
    fireEvent.mouseOver(screen.getByTestId('miner-cell-12'));
    const card = screen.getByTestId('miner-board-popover');
    expect(card.textContent).toContain('SN12');
    expect(card.textContent).toContain('acct.12');
    expect(card.textContent).toContain('10.0.0.12');
    expect(card.textContent).toContain('Antminer S21');
    expect(card.textContent).toContain('Fault: fan');
    expect(card.textContent).toContain('78 °C');
    expect(card.textContent).toContain('190 TH/s / 200 TH/s (95 %)');
    expect(card.textContent).toContain('3.5 kW');
    fireEvent.mouseOver(screen.getByTestId('miner-cell-15'));
    expect(screen.getByTestId('miner-board-popover').textContent).toContain('Chip max. temperature-');
    fireEvent.mouseLeave(map);
    expect(screen.queryByTestId('miner-board-popover')).toBeNull();
  });

  it("recolours a cell when the mine's live feed reports", async () => {
    open('/minerBoard?id=7&area_id=2');
    await screen.findByTestId('miner-board-map');
    expect(colour(11)).toBe('online');
    miners = miners.map((m) => (m.id === 11 ? { ...m, fault: 'hashboard' } : m));
    act(() => sockets[0]!.onmessage?.({ data: JSON.stringify({ type: 'status', fboxId: 3, online: true }) }));
    await waitFor(() => expect(colour(11)).toBe('fault'), { timeout: 3000 });
  });

  it('turns pages of FBOXes when they do not all fit legibly, and says which page shows', async () => {
    pageSeconds = 5;
    fboxes = Array.from({ length: 4 }, (_, i) => ({
      id: 100 + i,
      name: `Box ${i + 1}`,
      online: true,
      tanks: [],
    }));
    miners = fboxes.flatMap((fbox, f) =>
      Array.from({ length: 300 }, (_, i) => miner(1000 * (f + 1) + i, fbox.id, null, i + 1)),
    );
    const area = { width: 300, height: 150 };
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({
      ...area,
      x: 0,
      y: 0,
      left: 0,
      top: 0,
      right: area.width,
      bottom: area.height,
      toJSON: () => area,
    });
    const pages = pageFboxes(
      layoutShape(buildSiteMap(answer())),
      area,
      mapMetrics(window.innerHeight),
      pitchLimits(window.innerHeight),
    );
    expect(pages.length).toBeGreaterThan(1);
    open('/minerBoard?id=7&area_id=2');
    const indicator = await screen.findByTestId('miner-board-page');
    expect(indicator.textContent).toBe(`Page 1 / ${pages.length}`);
    const shown = () =>
      fboxes.filter((fbox) => screen.queryByTestId(`miner-board-fbox-${fbox.id}`)).map((fbox) => fbox.id);
    expect(shown()).toEqual(pages[0]!.fboxIds);
    await waitFor(() => expect(indicator.textContent).toBe(`Page 2 / ${pages.length}`), { timeout: 7000 });
    expect(shown()).toEqual(pages[1]!.fboxIds);
  });

  it('says a board the server does not know (or of another type) is not found', async () => {
    boardCode = -3;
    open('/minerBoard?id=404&area_id=2');
    expect(await screen.findByText('Board not found')).toBeTruthy();
    expect(screen.getByTestId('board-back').getAttribute('href')).toBe('/board/boardList');
    expect(screen.queryByTestId('miner-board-map')).toBeNull();
  });

  it('asks nothing for an address without a board', async () => {
    open('/minerBoard');
    expect(await screen.findByText('Board not found')).toBeTruthy();
    expect(sent.some((url) => url.startsWith('/index/fbox.board/miners'))).toBe(false);
  });
});

describe('MinerBigScreenPage', () => {
  it("heads the site map with the miners' totals", async () => {
    open('/minerBigScreen?id=7&area_id=2', <MinerBigScreenPage />);
    await screen.findByTestId('miner-board-map');
    // 6 of 7 online; the offline miner's readings do not count.
    expect(screen.getByTestId('miner-total-online').textContent).toBe('Miners online6/7');
    expect(screen.getByTestId('miner-total-hashrate').textContent).toBe(
      'Hashrate1.14 PH/s95 % of 1.2 PH/s theoretical',
    );
    expect(screen.getByTestId('miner-total-faults').textContent).toBe('Miners with a fault1');
    expect(screen.getByTestId('miner-total-hottest').textContent).toBe('Hottest chip88 °C');
    expect(screen.getAllByTestId(/^miner-cell-/)).toHaveLength(7);
  });
});
