import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setMessageApi, setStaticMessageApi } from '../../../lib/feedback';
import { MineFormDialog } from './MineFormDialog';

const answer = (body: unknown) =>
  vi.fn(
    async () =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  );

const fill = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

const save = () => act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));

describe('MineFormDialog', () => {
  let onClose: ReturnType<typeof vi.fn<() => void>>;
  beforeEach(() => {
    // jsdom has neither ResizeObserver nor matchMedia; antd's text area and modal ask for them.
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: false,
      media: query,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
    }));
    const quiet = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() } as never;
    setMessageApi(quiet);
    setStaticMessageApi(quiet);
    onClose = vi.fn<() => void>();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MineFormDialog open onClose={onClose} />
      </QueryClientProvider>,
    );
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('checks the price like the contract and sends nothing until it is valid', async () => {
    const fetch = answer({
      code: 1,
      msg: 'Modified successfully',
      data: { id: 1, area_name: 'North', electricity_hz: 50 },
    });
    vi.stubGlobal('fetch', fetch);
    fill('Mine name', 'North');
    await save();
    expect(await screen.findByText('Electricity price is required')).toBeTruthy();
    for (const [typed, error] of [
      ['abc', 'Electricity price must be a valid number'],
      ['1e3', 'Electricity price must be a valid number'],
      ['0', 'Electricity price must be a number greater than 0'],
      ['-2', 'Electricity price must be a number greater than 0'],
    ] as const) {
      fill('Electricity price', typed);
      await save();
      expect(await screen.findByText(error)).toBeTruthy();
    }
    expect(fetch).not.toHaveBeenCalled();

    fill('Electricity price', '0.07');
    fill('Coordinator contact', 'Ana');
    await save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/index/fbox.area/create');
    const sent = new URLSearchParams(String(init.body));
    expect(Object.fromEntries(sent)).toMatchObject({
      area_name: 'North',
      electricity_price: '0.07',
      electricity_hz: '50',
      contact: 'Ana',
      comment: '',
    });
  }, 60_000);

  it("puts the server's field errors on the fields", async () => {
    vi.stubGlobal(
      'fetch',
      answer({
        code: -2,
        msg: 'Electricity price: must be at most 1000000',
        data: {
          errors: [
            { field: 'electricity_price', rule: 'rule.numberMax', message: 'rule.numberMax {"max":1000000}' },
          ],
        },
      }),
    );
    fill('Mine name', 'North');
    fill('Electricity price', '5');
    await save();
    expect(await screen.findByText('Electricity price must be at most 1000000')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  }, 30_000);
});
