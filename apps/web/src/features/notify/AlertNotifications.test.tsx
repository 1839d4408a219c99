import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AlertNotifications } from './AlertNotifications';

const answer = (data: unknown) =>
  vi.fn(
    async (_input: RequestInfo | URL, _init?: RequestInit) =>
      new Response(JSON.stringify({ code: 1, msg: 'Success', data }), {
        headers: { 'content-type': 'application/json' },
      }),
  );

const renderList = () =>
  render(<AlertNotifications areaId={3} alertId={7} />, {
    wrapper: ({ children }) => (
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        {children}
      </QueryClientProvider>
    ),
  });

describe('notifications of an alert', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("lists each notification with its outcome, asking for the alert's mine", async () => {
    const fetch = answer([
      {
        id: 2,
        kind: 'fired',
        channel: 'sms',
        recipient: 'master',
        address: '+1 5550001111',
        status: 'failed',
        attempts: 1,
        last_error: 'no SMS credit left',
        created_at: 0,
        sent_at: null,
      },
      {
        id: 1,
        kind: 'fired',
        channel: 'email',
        recipient: 'master',
        address: 'ops@example.com',
        status: 'sent',
        attempts: 2,
        last_error: null,
        created_at: 0,
        sent_at: Date.UTC(2025, 0, 1),
      },
    ]);
    vi.stubGlobal('fetch', fetch);
    renderList();
    expect(await screen.findByText('no SMS credit left')).toBeTruthy();
    expect(screen.getByText('Failed')).toBeTruthy();
    expect(screen.getByText('ops@example.com')).toBeTruthy();
    expect(screen.getByText('Email')).toBeTruthy();
    expect(String(fetch.mock.calls[0]![0])).toMatch(/\/fbox\.notify\/alert\?.*area_id=3/);
    expect(String(fetch.mock.calls[0]![0])).toMatch(/[?&]id=7/);
  });

  it('says when nothing was sent', async () => {
    vi.stubGlobal('fetch', answer([]));
    renderList();
    expect(await screen.findByText('No notification was sent for this alert')).toBeTruthy();
  });
});
