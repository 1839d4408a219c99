import { operatorRules, type PowerStatistic } from '@fbox/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { timeZoneStore } from '../../lib/time';
import { renderPage, resetPageTest } from '../../test-page';
import { PowerStatisticPage } from './PowerStatisticPage';

// 2026-11-25 00:00 and 01:00 in UTC+8.
const h0 = Date.UTC(2026, 10, 24, 16);
const h1 = h0 + 3_600_000;
const row = (bucket_ts: number, fbox_id: number, energy: number, resets = 0) => ({
  bucket_ts,
  fbox_id,
  energy_kwh: energy,
  meter1_kwh: energy,
  meter2_kwh: null,
  cost: energy * 0.05,
  resets,
  peak_kw: 310,
  j_per_th: null,
});
const answer: PowerStatistic = {
  bucket: 'hour',
  time_zone: 'UTC+8',
  price: 0.05,
  prices: [{ valid_from: 0, price: 0.05 }],
  fboxes: [
    { id: 1, name: 'North' },
    { id: 2, name: 'South' },
  ],
  rows: [row(h0, 1, 1200), row(h0, 2, 800), row(h1, 1, 1000, 1)],
  buckets: [
    { bucket_ts: h0, energy_kwh: 2000, cost: 100, resets: 0, peak_kw: 600, j_per_th: 21.5 },
    { bucket_ts: h1, energy_kwh: 1000, cost: 50, resets: 1, peak_kw: 310, j_per_th: null },
  ],
  profile_step: 'hour',
  profile: [{ ts: h0, power_kw: 550, peak_kw: 600 }],
  total_kwh: 3000,
  total_cost: 150,
  resets: 1,
  peak_kw: 600,
  j_per_th: 21.5,
};
let statisticCalls: URLSearchParams[] = [];

beforeEach(() => {
  timeZoneStore.set('UTC+8');
  statisticCalls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const [path, search] = url.split('?');
      if (path === '/index/fbox.electricity/statistic') {
        statisticCalls.push(new URLSearchParams(search));
        return Response.json({ code: 1, msg: 'ok', data: answer });
      }
      if (path === '/index/fbox.electricity/prices')
        return Response.json({
          code: 1,
          msg: 'ok',
          data: { items: [{ valid_from: 0, price: 0.05, created_by: null, created_at: 0 }], current: 0.05 },
        });
      if (path === '/index/fbox.user/getrule')
        return Response.json({
          code: 1,
          msg: 'ok',
          data: { role: 'master', rules: operatorRules, all: operatorRules },
        });
      return Response.json({ code: 1, msg: 'ok', data: [] });
    }),
  );
});

afterEach(resetPageTest);

const open = () => renderPage(<PowerStatisticPage />);

const energyShown = () =>
  waitFor(() => expect(screen.getByTestId('power-kpi-energy').textContent).toContain('3 MWh'));

// antd's first render in jsdom takes seconds.
describe('Power Statistics page', () => {
  it('shows the totals in their units, the table behind the chart and the meter reset note', async () => {
    open();
    await energyShown();
    expect(screen.getByTestId('power-kpi-peak').textContent).toMatch(/600(\.0)? kW/);
    expect(screen.getByTestId('power-kpi-efficiency').textContent).toContain('21.5 J/TH');
    const table = screen.getByTestId('power-table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(rows[0]!.textContent).toContain('2026-11-25 00:00');
    expect(rows[0]!.textContent).toContain('North');
    expect(rows[0]!.textContent).toMatch(/1\.2 MWh/);
    // No hashrate: a dash, not 0.
    expect(rows[0]!.textContent).toContain('-');
    expect(screen.getByText('Meter reset — counted from 0')).toBeTruthy();
    // Today by the hour: from the user's midnight, one day.
    const asked = statisticCalls[0]!;
    expect(asked.get('bucket')).toBe('hour');
    expect(Number(asked.get('to')) - Number(asked.get('from'))).toBe(86_400_000);
  });

  it('asks for the week by the day when the range changes, and for days of a custom range', async () => {
    open();
    await energyShown();
    fireEvent.click(screen.getByText('This week'));
    await waitFor(() => expect(statisticCalls.at(-1)?.get('bucket')).toBe('day'));
    const week = statisticCalls.at(-1)!;
    expect(Number(week.get('to')) - Number(week.get('from'))).toBe(7 * 86_400_000);
    fireEvent.click(screen.getByText('Custom'));
    expect(await screen.findByText('Pick the first and last day of the range.')).toBeTruthy();
  });

  it('says it in Chinese', async () => {
    await changeLanguage('zh');
    open();
    expect(await screen.findByText('电表已清零——从 0 重新计数')).toBeTruthy();
    expect(screen.getByText('电价历史')).toBeTruthy();
    expect(screen.getByText('自始有效')).toBeTruthy();
  });
});
