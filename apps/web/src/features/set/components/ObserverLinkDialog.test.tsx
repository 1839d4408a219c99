import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storage, storageKeys } from '../../../lib/storage';
import { ExternalLink } from './ExternalLink';
import { ObserverLinkDialog } from './ObserverLinkDialog';

/** What a hostile stored link would hold. */
const SCRIPT_URL = 'javascript:alert(1)';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

const renderDialog = () => {
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ObserverLinkDialog onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose };
};

describe('observer link dialog', () => {
  it('refuses a link that is not http(s) before asking the server, then saves a good one', async () => {
    storage.write(storageKeys.areaId, 7);
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(
        JSON.stringify({
          code: 1,
          msg: 'Modified successfully',
          data: {
            id: 1,
            area_id: 7,
            pool: 'F2Pool',
            subaccount: 'a',
            coin: 'BTC',
            link: 'https://f2pool.com/x',
            created_at: 0,
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      ),
    );
    const { onClose } = renderDialog();
    fill('Mining pool', 'F2Pool');
    fill('Subaccount name', 'a');
    fill('Coin', 'BTC');
    fill('Link', SCRIPT_URL);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Link must be an http:// or https:// address')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();

    fill('Link', 'https://f2pool.com/x');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0]!;
    expect(url).toBe('/index/fbox.pool/create');
    const sent = new URLSearchParams(String(init?.body));
    expect(Object.fromEntries(sent)).toMatchObject({
      area_id: '7',
      pool: 'F2Pool',
      subaccount: 'a',
      coin: 'BTC',
      link: 'https://f2pool.com/x',
    });
  });

  it('says a required field is missing', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    renderDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Link is required')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });
});

describe('external link', () => {
  it('opens an http(s) address in a new tab without an opener', () => {
    render(<ExternalLink href="https://www.f2pool.com/mining-user/abc" testId="l" />);
    const a = screen.getByTestId('l');
    expect(a.tagName).toBe('A');
    expect(a.getAttribute('target')).toBe('_blank');
    expect(a.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('never makes a link of anything else', () => {
    render(<ExternalLink href={SCRIPT_URL} testId="l" />);
    const shown = screen.getByTestId('l');
    expect(shown.tagName).toBe('SPAN');
    expect(shown.getAttribute('href')).toBeNull();
  });
});
