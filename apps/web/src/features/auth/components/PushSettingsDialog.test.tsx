import type { UserInfo } from '@fbox/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
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

describe('push settings dialog', { timeout: 30_000 }, () => {
  beforeEach(() => {
    setMessageApi({ success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } as never);
  });
  afterEach(() => {
    cleanup();
    setMessageApi(null);
    vi.unstubAllGlobals();
  });

  it("shows the server's error of a row on that row and stays open", async () => {
    const fetch = vi.fn(
      async () =>
        new Response(
          JSON.stringify({
            code: -2,
            msg: 'Parameter error',
            data: {
              errors: [{ field: 'pushContent.emailList.0', rule: 'custom', message: 'Mailbox refused' }],
            },
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    const onClose = vi.fn();
    renderDialog(onClose);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Mailbox refused')).toBeTruthy();
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(onClose).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
