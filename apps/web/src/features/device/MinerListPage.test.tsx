import type { MinerListItem, RuleList } from '@fbox/contracts';
import { operatorRules } from '@fbox/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../app/query-client';
import { accessKeys } from '../../lib/access';
import { resetPageTest } from '../../test-page';
import { MinerListPage, prefetchMinerList } from './MinerListPage';

const miner = (id: number, worker: string): MinerListItem => ({
  id,
  sn: `SN${id}`,
  worker,
  model: 'S19 Pro',
  brand: 'Antminer',
  pool: 'stratum+tcp://pool.example:3333',
  pool_address: 'pool.example:3333',
  ip: `10.0.0.${id}`,
  firmware: '1.0',
  fbox_id: 1,
  fbox_name: 'Box 1',
  tank_id: null,
  tank_name: null,
  outlet: null,
  status: 'online',
  mode: 'high',
  fault: '',
  chip_avg_temp: 60,
  chip_max_temp: 70,
  hashrate_theoretical: 110,
  hashrate_realtime: 108,
  hashrate_avg: 109,
  hashrate_24h: 109,
  power_w: 3250,
  uptime_s: 3600,
  updated_at: Date.UTC(2026, 10, 28),
  pool_hijacked: false,
});

/** The list requests the page and its prefetch made, by their query string. */
const listRequests: string[] = [];
/** How often the mine list was asked for. */
let areaRequests = 0;

beforeEach(() => {
  listRequests.length = 0;
  areaRequests = 0;
  localStorage.setItem('fbox.areaId', '3');
  queryClient.setQueryData(accessKeys.rules(), {
    role: 'master',
    rules: [...operatorRules],
    all: [...operatorRules],
  } satisfies RuleList);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const [path, query = ''] = url.split('?');
      if (path === '/index/fbox.miner/index') {
        listRequests.push(query);
        const page = new URLSearchParams(query).get('page') === '2';
        return Response.json({
          code: 1,
          msg: 'ok',
          data: {
            items: page ? [miner(21, 'acct.w21')] : [miner(1, 'acct.w1')],
            total: 21,
            page: 1,
            limit: 20,
          },
        });
      }
      if (path === '/index/fbox.area/index') {
        areaRequests++;
        return Response.json({
          code: 1,
          msg: 'ok',
          data: [
            { id: 7, area_name: 'North', electricity_hz: 50 },
            { id: 3, area_name: 'South', electricity_hz: 50 },
          ],
        });
      }
      return Response.json({ code: 1, msg: 'ok', data: null });
    }),
  );
});

afterEach(async () => {
  await resetPageTest();
  queryClient.clear();
  localStorage.clear();
});

const open = (path: string) =>
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <MinerListPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('MinerListPage', () => {
  it('finds the rows its route prefetched for the URL, and asks the server once', async () => {
    const path = '/device/machineList?page=2&mode=low';
    await prefetchMinerList(new URL(path, 'http://console.test'));
    expect(listRequests).toHaveLength(1);
    const sent = new URLSearchParams(listRequests[0]);
    expect([sent.get('area_id'), sent.get('page'), sent.get('mode')]).toEqual(['3', '2', 'low']);
    open(path);
    expect(await screen.findByText('acct.w21')).toBeTruthy();
    expect(listRequests).toHaveLength(1);
  });

  it('on a first visit (no mine chosen) asks for the list of the first mine, once the mine list is read', async () => {
    localStorage.removeItem('fbox.areaId');
    const path = '/device/machineList';
    await prefetchMinerList(new URL(path, 'http://console.test'));
    expect(areaRequests).toBe(1);
    expect(listRequests.map((q) => new URLSearchParams(q).get('area_id'))).toEqual(['7']);
    open(path);
    expect(await screen.findByText('acct.w1')).toBeTruthy();
    expect(listRequests).toHaveLength(1);
    expect(areaRequests).toBe(1);
  });
});
