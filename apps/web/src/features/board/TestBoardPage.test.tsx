import type { TestBoard } from '@fbox/contracts';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../app/query-client';
import { resetPageTest } from '../../test-page';
import { TestBoardPage } from './TestBoardPage';

const at = Date.UTC(2026, 10, 25, 2);
type Miner = TestBoard['miners'][number];

const miner = (id: number, tank_no: number | null, slot: number, test: Partial<Miner>): Miner => ({
  id,
  fbox_id: 3,
  tank_no,
  slot,
  sn: `SN${id}`,
  worker: `acct.${id}`,
  ip: `10.0.0.${id}`,
  model: 'Antminer S21',
  online: true,
  hashrate: 190,
  theoretical: 200,
  ratio: 95,
  chip_max_temp: 70,
  reported: 1,
  verdict: 'pass',
  failed: [],
  ...test,
});

const answer = (): TestBoard => ({
  board: {
    id: 9,
    area_id: 2,
    type: 'minerBoardTest',
    title: 'New FBOX 3',
    fbox_ids: [3],
    theme: 'dark',
    metric: 'status',
    page_seconds: 20,
    test_hours: 48,
    pass_ratio: 90,
    max_chip_temp: 85,
    camera_id: null,
    kiosk_created_at: null,
    created_at: at,
    updated_at: at,
  },
  window: { from: at - 47 * 3_600_000, to: at },
  counts: { pass: 1, fail: 2, no_data: 1, hashrate: 1, temperature: 2 },
  fboxes: [{ id: 3, name: 'Container 3', online: true, tanks: [{ id: 30, no: 1, name: 'Tank 1' }] }],
  miners: [
    miner(1, 1, 1, {}),
    miner(2, 1, 2, {
      hashrate: 150,
      ratio: 75,
      chip_max_temp: 91,
      reported: 0.5,
      verdict: 'fail',
      failed: ['hashrate', 'temperature'],
    }),
    miner(3, 1, 3, { chip_max_temp: 88, verdict: 'fail', failed: ['temperature'] }),
    miner(4, null, 4, {
      online: false,
      hashrate: null,
      ratio: null,
      chip_max_temp: null,
      reported: 0,
      verdict: 'no_data',
    }),
  ],
  at,
});

let body: () => unknown;
const sent: string[] = [];

class FakeSocket {
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: (() => void) | null = null;
  close() {}
}

beforeEach(() => {
  body = () => ({ code: 1, msg: 'ok', data: answer() });
  sent.length = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      sent.push(url);
      const path = url.split('?')[0]!;
      if (path === '/index/fbox.board/test' || path === '/index/fbox.board/kiosk_test')
        return Response.json(body());
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
      <TestBoardPage />
    </MemoryRouter>,
  );

const cell = (id: number) => screen.getByTestId(`miner-cell-${id}`);

describe('TestBoardPage', () => {
  it('colours each miner by its verdict on the site map, with the counts and the test on top', async () => {
    open('/minerBoardTest?id=9&area_id=2');
    expect((await screen.findByTestId('board-title')).textContent).toBe('New FBOX 3');
    expect(sent.some((url) => url.startsWith('/index/fbox.board/test?') && url.includes('id=9'))).toBe(true);
    expect(screen.getByTestId('test-board-legend').textContent).toBe(
      'Last 48 h · pass ≥ 90 % of theoretical · chip ≤ 85 °CPassFailNo data',
    );
    expect(screen.getByTestId('test-count-pass').textContent).toBe('Passed1');
    expect(screen.getByTestId('test-count-fail').textContent).toBe('Failed21 low hashrate · 2 too hot');
    expect(screen.getByTestId('test-count-no-data').textContent).toBe('No data1');
    expect(screen.getByTestId('test-count-all').textContent).toBe('Miners tested4');
    expect([1, 2, 3, 4].map((id) => cell(id).dataset.colour)).toEqual(['pass', 'fail', 'fail', 'no_data']);
    // Grouped like the site map: the tank's miners by slot, then those outside tanks.
    expect(screen.getByText('Tank 1')).toBeTruthy();
    expect(screen.getByText('Outside tanks')).toBeTruthy();
  });

  it('shows a miner’s test in the card of its cell', async () => {
    open('/minerBoardTest?id=9&area_id=2');
    await screen.findByTestId('board-title');
    fireEvent.mouseOver(cell(2));
    const card = await screen.findByTestId('miner-board-popover');
    expect(card.textContent).toContain('SN2');
    expect(card.textContent).toContain('Fail: low hashrate, too hot');
    expect(card.textContent).toContain('150 TH/s / 200 TH/s (75 %)');
    expect(card.textContent).toContain('91 °C');
    expect(card.textContent).toContain('Reported50 %');
    fireEvent.mouseOver(cell(4));
    await waitFor(() => expect(screen.getByTestId('miner-board-popover').textContent).toContain('No data'));
  });

  it('reads a kiosk link’s board by its token; an unknown board is not found', async () => {
    open(`/minerBoardTest?kiosk=${'t'.repeat(43)}`);
    await screen.findByTestId('board-title');
    expect(sent.some((url) => url.startsWith('/index/fbox.board/kiosk_test?'))).toBe(true);
  });

  it('says a board the server does not know is not found', async () => {
    body = () => ({ code: -3, msg: 'Not found', data: null });
    open('/minerBoardTest?id=404&area_id=2');
    expect(await screen.findByText('Board not found')).toBeTruthy();
  });
});
