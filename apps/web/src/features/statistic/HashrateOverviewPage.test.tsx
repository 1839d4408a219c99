import { type HashrateOverview, type HashrateWorst, operatorRules } from '@fbox/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { timeZoneStore } from '../../lib/time';
import { renderPage, resetPageTest } from '../../test-page';
import { HashrateOverviewPage } from './HashrateOverviewPage';

const day = 86_400_000;
// 2026-11-24 and 2026-11-25 00:00 in UTC+8.
const d0 = Date.UTC(2026, 10, 23, 16);
const d1 = d0 + day;
const stat = (hashrate: number, theoretical: number) => ({
  hashrate,
  theoretical,
  ratio: hashrate / theoretical,
  online_rate: 0.95,
  reachable_uptime: 0.9,
  hashing_uptime: 0.85,
});
const answer: HashrateOverview = {
  bucket: 'day',
  split: 'fbox',
  time_zone: 'UTC+8',
  from: d0,
  to: d1 + day,
  kpi: {
    hashrate: 1234.5,
    theoretical: 1500,
    ratio: 0.823,
    online_rate: 0.95,
    reachable_uptime: 0.9,
    hashing_uptime: 0.85,
  },
  totals: [
    { bucket_ts: d0, ...stat(1200, 1500) },
    { bucket_ts: d1, ...stat(1269, 1500) },
  ],
  series: [
    { key: '1', name: 'North', ...stat(800, 900) },
    { key: '2', name: 'South', ...stat(434.5, 600) },
  ],
  rows: [
    { bucket_ts: d0, key: '1', ...stat(780, 900) },
    { bucket_ts: d0, key: '2', ...stat(420, 600) },
    { bucket_ts: d1, key: '1', ...stat(820, 900) },
    { bucket_ts: d1, key: '2', ...stat(449, 600) },
  ],
};
const noData: HashrateOverview = {
  ...answer,
  kpi: {
    hashrate: null,
    theoretical: null,
    ratio: null,
    online_rate: null,
    reachable_uptime: null,
    hashing_uptime: null,
  },
  totals: [],
  series: [],
  rows: [],
};
const worst: HashrateWorst = {
  from: d0,
  to: d1 + day,
  items: [
    {
      miner_id: 7,
      sn: 'SN-SLOW-7',
      worker: 'north.007',
      model: 'S19 Pro',
      ip: '10.0.0.7',
      fbox_id: 1,
      fbox_name: 'North',
      hashrate: 40,
      theoretical: 110,
      ratio: 0.363636,
      lost: 70,
      reachable_uptime: 0.5,
      hashing_uptime: 0.4,
    },
  ],
};

/** What the fake server answers to the overview: the data, no data, or a failure. */
let overviewAnswer: 'data' | 'empty' | 'fail' = 'data';
let overviewCalls: URLSearchParams[] = [];

beforeEach(() => {
  timeZoneStore.set('UTC+8');
  overviewAnswer = 'data';
  overviewCalls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const [path, search] = url.split('?');
      if (path === '/index/fbox.statistic/hashrate') {
        overviewCalls.push(new URLSearchParams(search));
        if (overviewAnswer === 'fail')
          return Response.json({ code: 0, msg: 'Database unavailable', data: null });
        return Response.json({ code: 1, msg: 'ok', data: overviewAnswer === 'data' ? answer : noData });
      }
      if (path === '/index/fbox.statistic/hashrate_worst')
        return Response.json({ code: 1, msg: 'ok', data: worst });
      if (path === '/index/fbox.user/getrule')
        return Response.json({
          code: 1,
          msg: 'ok',
          data: { role: 'master', rules: operatorRules, all: operatorRules },
        });
      return Response.json({ code: 1, msg: 'ok', data: null });
    }),
  );
});

afterEach(resetPageTest);

const open = () => renderPage(<HashrateOverviewPage />);

const kpi = (key: string) => screen.getByTestId(`hashrate-kpi-${key}`).textContent ?? '';
const hashrateShown = () => waitFor(() => expect(kpi('hashrate')).toContain('1.23 PH/s'));

// antd's first render in jsdom takes seconds.
describe('Hashrate Overview page', () => {
  it('shows the KPIs in their units with what each one means', async () => {
    open();
    await hashrateShown();
    expect(kpi('hashrate')).toContain('Average hashrate');
    expect(kpi('hashrate')).toContain('of 1.5 PH/s theoretical (82.3%)');
    expect(kpi('online')).toContain('95.0%');
    expect(kpi('reachable')).toContain('90.0%');
    expect(kpi('hashing')).toContain('85.0%');
    expect(kpi('online')).toContain('Share of miner-hours in which the miner reported online at least once.');
    expect(kpi('reachable')).toContain('Share of the miners’ time covered by online reports');
    expect(kpi('hashing')).toContain('with hashrate above 0 (reported and hashing)');
    // The series table: each FBOX in TH/s below 1000.
    const series = within(screen.getByTestId('hashrate-series-table')).getAllByRole('row').slice(1);
    expect(series).toHaveLength(2);
    expect(series[0]!.textContent).toContain('North');
    expect(series[0]!.textContent).toContain('800 TH/s');
    expect(series[1]!.textContent).toContain('434.5 TH/s');
    // Last 7 days by the day, split by FBOX.
    const asked = overviewCalls[0]!;
    expect(asked.get('bucket')).toBe('day');
    expect(asked.get('split')).toBe('fbox');
    expect(Number(asked.get('to')) - Number(asked.get('from'))).toBe(7 * day);
  });

  it('says when the range has no data, with dashes in the KPIs', async () => {
    overviewAnswer = 'empty';
    open();
    expect(await screen.findByTestId('hashrate-empty')).toBeTruthy();
    expect(screen.getAllByText('No hashrate data in this range').length).toBeGreaterThan(0);
    expect(kpi('hashrate')).toContain('-');
    expect(kpi('hashrate')).not.toContain('TH/s');
    expect(kpi('online')).toContain('-');
    expect(kpi('online')).not.toContain('%');
  });

  it('says when loading failed and loads again on retry', async () => {
    overviewAnswer = 'fail';
    open();
    const error = await screen.findByTestId('hashrate-error');
    expect(error.textContent).toContain('The hashrate overview could not be loaded');
    expect(error.textContent).toContain('Database unavailable');
    overviewAnswer = 'data';
    fireEvent.click(within(error).getByRole('button', { name: 'Retry' }));
    await hashrateShown();
    await waitFor(() => expect(screen.queryByTestId('hashrate-error')).toBeNull());
  });

  it('asks again when the range or the split changes', async () => {
    open();
    await hashrateShown();
    fireEvent.click(within(screen.getByTestId('hashrate-split')).getByText('Model'));
    await waitFor(() => expect(overviewCalls.at(-1)?.get('split')).toBe('model'));
    expect(overviewCalls.at(-1)?.get('bucket')).toBe('day');
    fireEvent.click(within(screen.getByTestId('hashrate-preset')).getByText('Last 24 h'));
    await waitFor(() => expect(overviewCalls.at(-1)?.get('bucket')).toBe('hour'));
    const last24 = overviewCalls.at(-1)!;
    expect(last24.get('split')).toBe('model');
    expect(Number(last24.get('to')) - Number(last24.get('from'))).toBe(day);
    // A custom range offers the resolution.
    fireEvent.click(within(screen.getByTestId('hashrate-preset')).getByText('Custom'));
    expect(await screen.findByText('By hour')).toBeTruthy();
  });

  it('lists the miners costing the most hashrate, each linking to its miner page', async () => {
    open();
    const table = screen.getByTestId('hashrate-worst-table');
    const link = await within(table).findByRole('link', { name: 'SN-SLOW-7' });
    expect(link.getAttribute('href')).toBe('/device/machineDetail?id=7');
    const row = within(table).getAllByRole('row').slice(1)[0]!;
    expect(row.textContent).toContain('north.007');
    expect(row.textContent).toContain('40 TH/s');
    expect(row.textContent).toContain('70 TH/s');
    expect(row.textContent).toContain('36.4%');
  });

  it('says it in Chinese', async () => {
    await changeLanguage('zh');
    open();
    await hashrateShown();
    expect(kpi('hashrate')).toContain('平均算力');
    expect(kpi('hashing')).toContain('算力大于 0 的在线上报覆盖的矿机时间占比（有上报且在出力）。');
  });
});
