import type { UserInfo } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setMessageApi } from '../../../lib/feedback';
import { userKeys } from '../api';
import { PushSettingsDialog } from './PushSettingsDialog';

const channel = (value: string[] = []) => ({ status: value.length > 0 ? (1 as const) : (0 as const), value });

const user: UserInfo = {
  id: 1,
  username: 'master',
  nickname: 'Master',
  email: '',
  mobile: '',
  time_zone: 'UTC',
  headimg: 1,
  is_masterID: 1,
  auto_frequency: 0,
  auto_frequency_config: { min: 0, max: 0 },
  pool_config: { status: 0 },
  global_config: '{}',
  alert_send_level: { '1': 1 },
  alert_send_level_lable: {},
  email_send: channel(['night@example.com']),
  sms_send: channel(),
  teams_send: channel(),
  telegram_send: channel(),
  sms_times: 10,
  google_auth: 0,
  roles: [],
};

/** The dialog as the account menu opens it: the user info is already cached. */
const renderDialog = (onClose: () => void) => {
  const client = new QueryClient();
  client.setQueryData(userKeys.info(), user);
  render(<PushSettingsDialog onClose={onClose} />, {
    wrapper: ({ children }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>,
  });
};

type Answer = { code: number; msg: string; data: unknown };

/** A stand-in server answering by the last part of the path (`setuserinfo`, `channels`, `test`, …). */
const server = (answers: Record<string, Answer>) => {
  const fetch = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
    const path = String(input instanceof Request ? input.url : input).split('?')[0]!;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const answer =
      answers[name] ??
      (name === 'channels'
        ? { code: 1, msg: 'Success', data: { email: true, sms: true, teams: true, telegram: true } }
        : { code: 1, msg: 'Success', data: name.endsWith('userinfo') ? user : { language: 'en' } });
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

const calls = (fetch: ReturnType<typeof server>, name: string) =>
  fetch.mock.calls.filter(([input]) =>
    String(input instanceof Request ? input.url : input)
      .split('?')[0]!
      .endsWith(`/${name}`),
  ).length;

describe('push settings dialog', () => {
  beforeEach(() => {
    setMessageApi({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } as never);
  });
  afterEach(() => {
    cleanup();
    setMessageApi(null);
    vi.unstubAllGlobals();
  });

  it("shows the server's error of a row on that row and stays open", async () => {
    const fetch = server({
      setuserinfo: {
        code: -2,
        msg: 'Parameter error',
        data: {
          errors: [{ field: 'pushContent.emailList.0', rule: 'custom', message: 'Mailbox refused' }],
        },
      },
    });
    const onClose = vi.fn();
    renderDialog(onClose);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Mailbox refused')).toBeTruthy();
    expect(calls(fetch, 'setuserinfo')).toBe(1);
    expect(calls(fetch, 'language')).toBe(0);
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('marks the channels the server is not configured for, and keeps their test off', async () => {
    server({
      channels: { code: 1, msg: 'Success', data: { email: false, sms: true, teams: true, telegram: false } },
    });
    renderDialog(vi.fn());
    expect(await screen.findByTestId('not-configured-email')).toBeTruthy();
    expect(screen.getByTestId('not-configured-telegram')).toBeTruthy();
    expect(screen.queryByTestId('not-configured-sms')).toBeNull();
    expect(screen.queryByTestId('not-configured-teams')).toBeNull();
    expect(screen.getAllByText('not configured on the server')).toHaveLength(2);
    const emailTest = within(screen.getByTestId('notify-test-email')).getByRole('button');
    expect((emailTest as HTMLButtonElement).disabled).toBe(true);
    const smsTest = within(screen.getByTestId('notify-test-sms')).getByRole('button');
    expect((smsTest as HTMLButtonElement).disabled).toBe(false);
  });

  it("shows each address's real outcome of a test send", async () => {
    const fetch = server({
      test: {
        code: 1,
        msg: 'Success',
        data: {
          results: [
            { address: 'night@example.com', ok: true, error: null },
            { address: 'day@example.com', ok: false, error: 'SMTP 550: Mailbox unavailable' },
          ],
        },
      },
    });
    renderDialog(vi.fn());
    fireEvent.click(
      within(screen.getByTestId('notify-test-email')).getByRole('button', { name: 'Send test' }),
    );
    expect(await screen.findByText('night@example.com: Sent')).toBeTruthy();
    expect(screen.getByText('day@example.com: Failed: SMTP 550: Mailbox unavailable')).toBeTruthy();
    const [, init] = fetch.mock.calls.find(([input]) => String(input).includes('/fbox.notify/test'))!;
    expect(String((init as RequestInit).body)).toContain('email');
  });

  it('shows the refusal of a test send without addresses', async () => {
    server({
      test: {
        code: -2,
        msg: 'Channel: save at least one address for this channel first',
        data: { errors: [{ field: 'channel', rule: 'rule.notifyNoAddress' }] },
      },
    });
    renderDialog(vi.fn());
    fireEvent.click(
      within(screen.getByTestId('notify-test-teams')).getByRole('button', { name: 'Send test' }),
    );
    expect(await screen.findByText(/save at least one address for this channel first/)).toBeTruthy();
  });

  it('records the console language as the notification language after a save', async () => {
    const fetch = server({});
    const onClose = vi.fn();
    renderDialog(onClose);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls(fetch, 'setuserinfo')).toBe(1);
    expect(calls(fetch, 'language')).toBe(1);
  });
});
