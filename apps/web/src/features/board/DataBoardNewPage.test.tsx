import type { DataBoard } from '@fbox/contracts';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../app/query-client';
import { resetPageTest } from '../../test-page';
import { DataBoardNewPage } from './DataBoardNewPage';
import { hashrateTrend } from './data-trend';

const at = Date.UTC(2026, 10, 25, 2);
const answer = (): DataBoard => ({
  board: {
    id: 6,
    area_id: 2,
    type: 'dataBoardNew',
    title: 'Hall overview',
    fbox_ids: [],
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
    { id: 3, name: 'Container 3', online: true, hashrate: 800 },
    { id: 4, name: 'Container 4', online: true, hashrate: 400 },
    { id: 5, name: 'Container 5', online: false, hashrate: 0 },
  ],
  fbox: { online: 2, offline: 1 },
  miner: { online: 180, offline: 20 },
  online_rate: 0.9,
  hashrate: 1200,
  theoretical: 1300,
  power_kw: 350,
  today_energy_kwh: 4200,
  alerts: { 1: 2, 2: 0, 3: 5 },
  series: {
    bucket_ms: 3_600_000,
    points: [
      { ts: at - 2 * 3_600_000, hashrate: 1000, power_kw: 340 },
      { ts: at - 3_600_000, hashrate: null, power_kw: null },
      { ts: at, hashrate: 1000, power_kw: 350 },
    ],
  },
  ...(withRevenue && {
    revenue: {
      coin: 'BTC',
      fiat: 'USD',
      time_zone: 'UTC+8',
      today: { day: '2026-11-25', source: 'none', coin: null, fiat: null },
      yesterday: { day: '2026-11-24', source: 'pool', coin: 0.0123, fiat: 1168.5 },
    },
  }),
  at,
});

let withRevenue: boolean;
let code: number;
const sent: string[] = [];

class FakeSocket {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  close() {}
}

beforeEach(() => {
  withRevenue = true;
  code = 1;
  sent.length = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      sent.push(url);
      const path = url.split('?')[0]!;
      if (path === '/index/fbox.board/data' || path === '/index/fbox.board/kiosk_data')
        return Response.json(
          code === 1 ? { code, msg: 'ok', data: answer() } : { code, msg: 'Not found', data: null },
        );
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
      <DataBoardNewPage />
    </MemoryRouter>,
  );

describe('hashrateTrend', () => {
  it('compares the hashrate now with its average over the hours that have one', () => {
    expect(hashrateTrend(answer())).toBeCloseTo(20, 6);
    expect(hashrateTrend({ hashrate: 900, series: { bucket_ms: 1, points: [] } })).toBeNull();
    expect(
      hashrateTrend({
        hashrate: -999,
        series: { bucket_ms: 1, points: [{ ts: 0, hashrate: 5, power_kw: 1 }] },
      }),
    ).toBeNull();
  });
});

describe('DataBoardNewPage', () => {
  it('shows the headline figures with the trend, alerts by level, each FBOX’s hashrate and the revenue', async () => {
    open('/dataBoardNew?id=6&area_id=2');
    expect((await screen.findByTestId('board-title')).textContent).toBe('Hall overview');
    expect(sent.some((url) => url.startsWith('/index/fbox.board/data?') && url.includes('id=6'))).toBe(true);
    expect(screen.getByTestId('board-kpi-hashrate').textContent).toBe(
      'Hashrate1.2 PH/s▲ 20 % vs 24 h average',
    );
    expect(screen.getByTestId('board-trend').dataset.trend).toBe('up');
    expect(screen.getByTestId('board-kpi-online-rate').textContent).toBe(
      'Online rate90 %180 / 200 miners online',
    );
    expect(screen.getByTestId('board-kpi-power').textContent).toBe('Power350 kW');
    expect(screen.getByTestId('board-alerts-1').textContent).toBe('2Critical');
    expect(screen.getByTestId('board-alerts-2').textContent).toBe('0Major');
    // Bars against the strongest FBOX; an offline one says so.
    expect(screen.getByTestId('board-fbox-bar-3').textContent).toBe('Container 3800 TH/s');
    const half = screen.getByTestId('board-fbox-bar-4').querySelector('span > span') as HTMLElement;
    expect(half.style.width).toBe('50%');
    expect(screen.getByTestId('board-fbox-bar-5').textContent).toBe('Container 5Offline');
    expect(screen.getByTestId('board-revenue-today').textContent).toBe('TodayNo data--');
    expect(screen.getByTestId('board-revenue-yesterday').textContent).toBe(
      'YesterdayPool-reported1,168.50 USD0.01230000 BTC',
    );
    expect(screen.queryByTestId('board-fbox-grid')).toBeNull();
  });

  it('shows the FBOXes’ states instead of revenue for a mine without any, read by a kiosk link', async () => {
    withRevenue = false;
    open(`/dataBoardNew?kiosk=${'n'.repeat(43)}`);
    await screen.findByTestId('board-title');
    expect(sent.some((url) => url.startsWith('/index/fbox.board/kiosk_data?'))).toBe(true);
    expect(screen.queryByTestId('board-revenue')).toBeNull();
    expect(screen.getByTestId('board-fbox-grid')).toBeTruthy();
  });

  it('says a board the server does not know is not found', async () => {
    code = -3;
    open('/dataBoardNew?id=404&area_id=2');
    expect(await screen.findByText('Board not found')).toBeTruthy();
  });
});
