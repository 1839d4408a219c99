import { operatorRules, type PoolSubaccount } from '@fbox/contracts';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { timeZoneStore } from '../../lib/time';
import { renderPage, resetPageTest } from '../../test-page';
import { PoolSubaccountPage } from './PoolSubaccountPage';

const row = (id: number, sync: PoolSubaccount['sync']): PoolSubaccount => ({
  id,
  area_id: 1,
  pool: 'Braiins Pool',
  subaccount: `site-${id}`,
  coin: 'BTC',
  observer_url: '',
  has_api_key: sync !== null,
  has_api_secret: false,
  created_at: 0,
  updated_at: 0,
  sync,
});

// 2026-11-25 02:00 UTC = 10:00 in UTC+8.
const at = Date.UTC(2026, 10, 25, 2);
const rows = [
  row(1, { status: 'ok', last_attempt_at: at, last_success_at: at, last_error: null, next_attempt_at: at }),
  row(2, {
    status: 'failed',
    last_attempt_at: at,
    last_success_at: null,
    last_error: 'Braiins Pool: HTTP 502',
    next_attempt_at: at + 60_000,
  }),
  row(3, null),
];

beforeEach(() => {
  timeZoneStore.set('UTC+8');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = url.split('?')[0];
      if (path === '/ff-plat-api/api/admin/area/pool/list')
        return Response.json({ code: 1, msg: 'ok', data: { items: rows, total: 3, page: 1, limit: 20 } });
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

const open = () => renderPage(<PoolSubaccountPage />);

// antd's first render in jsdom takes seconds.
describe('Mining Pool Subaccount: pool data', () => {
  it('shows how reading each pool went, with the reason and the next try of a failure', async () => {
    open();
    expect((await screen.findByTestId('pool-subaccount-sync-1')).textContent).toBe('Up to date');
    expect(screen.getByTestId('pool-subaccount-sync-3').textContent).toBe('-');
    const failed = screen.getByTestId('pool-subaccount-sync-2');
    expect(failed.textContent).toBe('Failed');
    fireEvent.mouseEnter(failed);
    expect(await screen.findByText('Pool said: Braiins Pool: HTTP 502')).toBeTruthy();
    expect(screen.getByText('Next try 2026-11-25 10:01:00')).toBeTruthy();
  });

  it('says it in Chinese too', async () => {
    await changeLanguage('zh');
    open();
    expect((await screen.findByTestId('pool-subaccount-sync-2')).textContent).toBe('失败');
  });
});
