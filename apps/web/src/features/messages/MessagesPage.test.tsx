import type { InboxMessage } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changeLanguage } from '../../lib/i18n';
import { timeZoneStore } from '../../lib/time';
import { MessagesPage } from './MessagesPage';

const fired: InboxMessage = {
  id: 11,
  kind: 'alert_fired',
  level: 1,
  area_id: 3,
  area_name: 'North mine',
  alert_id: 40,
  alert_open: true,
  params: {
    metric: 'oil_out_temp_high',
    target: 'tank',
    device: 'Tank 2',
    fbox: 'Box A',
    fbox_id: 7,
    mine: 'North mine',
    value: 58.26,
    peak: 58.26,
    detail: '',
  },
  title: 'stored fallback title',
  content: 'stored fallback content',
  // 2026-01-01 00:00:00 UTC
  created_at: 1_767_225_600_000,
  read_at: null,
};

const failed: InboxMessage = {
  id: 10,
  kind: 'command_failed',
  level: 2,
  area_id: 3,
  area_name: 'North mine',
  alert_id: null,
  alert_open: null,
  params: {
    command: 'miner.restart',
    device: 'w1',
    fbox: 'Box A',
    mine: 'North mine',
    status: 'timed_out',
    count: 3,
  },
  title: 'stored',
  content: 'stored',
  created_at: 1_767_225_000_000,
  read_at: 1_767_225_100_000,
};

/** The page's calls, as a fake server records them. */
const sent: { url: string; method: string; body: string }[] = [];
let unread = 1;

beforeEach(() => {
  sent.length = 0;
  unread = 1;
  timeZoneStore.set('UTC+8');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      sent.push({ url, method: init?.method ?? 'GET', body: String(init?.body ?? '') });
      const path = url.split('?')[0];
      if (path === '/index/fbox.message/index')
        return Response.json({
          code: 1,
          msg: 'ok',
          data: { items: [fired, failed], total: 2, page: 1, limit: 20 },
        });
      if (path === '/index/fbox.message/unread')
        return Response.json({ code: 1, msg: 'ok', data: { count: unread } });
      if (path === '/index/fbox.message/read') {
        unread = 0;
        return Response.json({ code: 1, msg: 'ok', data: { ...fired, read_at: 1 } });
      }
      if (path === '/index/fbox.message/readAll') {
        unread = 0;
        return Response.json({ code: 1, msg: 'ok', data: { updated: 1 } });
      }
      return Response.json({ code: 1, msg: 'ok', data: null });
    }),
  );
});

afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  timeZoneStore.set(null);
  await changeLanguage('en');
});

let location = '';
const Where = () => {
  const here = useLocation();
  location = `${here.pathname}${here.search}`;
  return null;
};

const renderPage = (initial = '/messages') => {
  const router = createMemoryRouter(
    [
      {
        path: '/messages',
        element: (
          <>
            <Where />
            <MessagesPage />
          </>
        ),
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [initial] },
  );
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
};

const requests = (path: string) => sent.filter((r) => r.url.split('?')[0] === path);

// antd's first render in jsdom takes seconds.
describe('MessagesPage', () => {
  it('renders each message from its kind and parameters, in the user time zone, unread ones emphasized', async () => {
    renderPage();
    expect(await screen.findByText('Critical alert: Oil outlet temperature high')).toBeTruthy();
    expect(screen.getByText('Tank Tank 2, FBOX Box A, mine North mine; value 58.3 °C')).toBeTruthy();
    expect(screen.getByText('3 commands failed: Restart')).toBeTruthy();
    expect(
      screen.getByText('w1, FBOX Box A, mine North mine; no acknowledgement from the gateway in time'),
    ).toBeTruthy();
    expect(screen.getByText('2026-01-01 08:00:00')).toBeTruthy();
    const titles = screen.getAllByTestId('inbox-title');
    expect(titles.map((title) => title.getAttribute('data-unread'))).toEqual(['true', 'false']);
    expect(screen.getByTestId('inbox-mark-all-read').textContent).toContain('Mark all read (1)');
    expect(screen.queryByText('stored fallback title')).toBeNull();
  });

  it('shows the same message in Chinese once the language changes', async () => {
    await changeLanguage('zh');
    renderPage();
    expect(await screen.findByText('紧急告警：出油温度过高')).toBeTruthy();
  });

  it('marks a message read when it is opened, and leads to its alert', async () => {
    renderPage();
    fireEvent.click(await screen.findByText('Critical alert: Oil outlet temperature high'));
    await waitFor(() => expect(requests('/index/fbox.message/read')).toHaveLength(1));
    expect(requests('/index/fbox.message/read')[0]!.body).toContain('id=11');
    // The badge's count is read again after the change.
    await waitFor(() => expect(screen.getByTestId('inbox-mark-all-read').textContent).toContain('(0)'));

    fireEvent.click(screen.getByTestId('inbox-open-alert'));
    await waitFor(() => expect(location).toBe('/alarm/currentAlarm?metric=oil_out_temp_high&fbox_id=7'));
  });

  it('filters unread only and marks all read', async () => {
    renderPage();
    await screen.findByText('Critical alert: Oil outlet temperature high');
    fireEvent.click(screen.getByText('Unread only'));
    await waitFor(() => expect(location).toBe('/messages?state=unread'));
    await waitFor(() =>
      expect(requests('/index/fbox.message/index').some((r) => r.url.includes('state=unread'))).toBe(true),
    );
    fireEvent.click(screen.getByTestId('inbox-mark-all-read'));
    await waitFor(() => expect(requests('/index/fbox.message/readAll')).toHaveLength(1));
    expect(requests('/index/fbox.message/readAll')[0]!.method).toBe('POST');
  });
});
