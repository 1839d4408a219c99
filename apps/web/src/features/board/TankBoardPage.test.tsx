import type { TankBoard } from '@fbox/contracts';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../app/query-client';
import { resetPageTest } from '../../test-page';
import { TankBoardPage } from './TankBoardPage';

const at = Date.UTC(2026, 10, 25, 2);
const tank = (
  id: number,
  no: number,
  changes: Partial<TankBoard['fboxes'][number]['tanks'][number]> = {},
) => ({
  id,
  no,
  name: `Tank ${no}`,
  online: true,
  oil_in_temp: 41.2,
  oil_out_temp: 50,
  liquid_level: 90,
  oil_pump: { value: 3000, percent: 60 },
  fans: [
    { value: 1200, percent: 24 },
    { value: -999, percent: null },
  ],
  control_mode: 'auto' as const,
  short_circuit: false,
  alerts: [],
  ...changes,
});
const answer = (): TankBoard => ({
  board: {
    id: 7,
    area_id: 2,
    type: 'tankBoard',
    title: 'Oil wall',
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
  limits: {
    oil_in_temp: [],
    oil_out_temp: [
      { level: 1, threshold: 60 },
      { level: 3, threshold: 52 },
    ],
    liquid_level: [{ level: 3, threshold: 85 }],
  },
  watched: { pump: false, fans: true },
  fboxes: [
    {
      id: 3,
      name: 'Container 3',
      online: true,
      tanks: [
        tank(31, 1),
        tank(32, 2, {
          oil_out_temp: 55.5,
          liquid_level: 85,
          alerts: [{ metric: 'fan_fault', level: 2 }],
          fans: [
            { value: 0, percent: 0 },
            { value: 1300, percent: 26 },
          ],
        }),
      ],
    },
    {
      id: 4,
      name: 'Container 4',
      online: false,
      tanks: [tank(41, 1, { online: false, oil_in_temp: -999, oil_out_temp: -999, liquid_level: -999 })],
    },
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
      if (path === '/index/fbox.board/tanks' || path === '/index/fbox.board/kiosk_tanks')
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
      <TankBoardPage />
    </MemoryRouter>,
  );

const row = (tankId: number, reading: string) => screen.getByTestId(`tank-${tankId}-${reading}`);

describe('TankBoardPage', () => {
  it('shows each tank’s readings against the alert rules’ thresholds, offline tanks marked', async () => {
    open('/tankBoard?id=7&area_id=2');
    expect((await screen.findByTestId('board-title')).textContent).toBe('Oil wall');
    expect(sent.some((url) => url.startsWith('/index/fbox.board/tanks?') && url.includes('id=7'))).toBe(true);
    expect(screen.getByTestId('tank-board-summary').textContent).toBe('3 tanks1 offline1 with an open alert');
    // Within the rules: green, with the first threshold it would pass.
    expect(row(31, 'oil_out_temp').dataset.band).toBe('ok');
    expect(row(31, 'oil_out_temp').textContent).toBe('Oil out50 °Calert > 52 °C');
    expect(row(31, 'liquid_level').textContent).toBe('Level90 %alert < 85 %');
    // No rule on the inlet oil: said so, not coloured.
    expect(row(31, 'oil_in_temp').dataset.band).toBe('free');
    expect(row(31, 'oil_in_temp').textContent).toBe('Oil in41.2 °Cno alert rule');
    // Past the minor rule (52 °C), not the critical one (60 °C); a level of exactly 85 % is not below it.
    expect(row(32, 'oil_out_temp').dataset.band).toBe('level3');
    expect(row(32, 'oil_out_temp').textContent).toContain('alert > 52 °C');
    expect(row(32, 'liquid_level').dataset.band).toBe('ok');
    // Drives: loads in % (a fan without a reading left out, several as lowest–highest); an open fan alert colours the fans by its level.
    expect(row(31, 'pump').textContent).toBe('Oil pump60 %no alert rule');
    expect(row(31, 'fans').textContent).toBe('Fans24 %fault rule on');
    expect(row(32, 'fans').dataset.band).toBe('level2');
    expect(row(32, 'fans').textContent).toBe('Fans0–26 %fault');
    expect(screen.getByTestId('tank-card-32').dataset.alert).toBe('2');
    // Offline: marked, its missing readings dashes.
    const offline = screen.getByTestId('tank-card-41');
    expect(offline.dataset.online).toBe('false');
    expect(within(offline).getByText('Offline')).toBeTruthy();
    expect(row(41, 'oil_in_temp').textContent).toBe('Oil in-no alert rule');
    expect(row(41, 'oil_in_temp').dataset.band).toBe('none');
  });

  it('reads a kiosk link’s board by its token, and says when a board has no tanks', async () => {
    const token = 'k'.repeat(43);
    body = () => ({ code: 1, msg: 'ok', data: { ...answer(), fboxes: [] } });
    open(`/tankBoard?kiosk=${token}`);
    expect(await screen.findByTestId('tank-board-empty')).toBeTruthy();
    expect(sent.some((url) => url.startsWith('/index/fbox.board/kiosk_tanks?') && url.includes(token))).toBe(
      true,
    );
    expect(sent.some((url) => url.startsWith('/index/fbox.board/tanks'))).toBe(false);
  });

  it('says a board the server does not know is not found', async () => {
    body = () => ({ code: -3, msg: 'Not found', data: null });
    open('/tankBoard?id=404&area_id=2');
    expect(await screen.findByText('Board not found')).toBeTruthy();
    expect(screen.queryByTestId('tank-board-grid')).toBeNull();
  });
});
