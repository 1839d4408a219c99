import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';
import { changeLanguage } from './lib/i18n';
import { timeZoneStore } from './lib/time';

/** A page as the app renders it, for web tests: a query client that does not retry, and a router. */
export const renderPage = (page: ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{page}</MemoryRouter>
    </QueryClientProvider>,
  );

/** After a page test: the page unmounted, the fake server gone, zone and language as they were. */
export const resetPageTest = async (): Promise<void> => {
  cleanup();
  vi.unstubAllGlobals();
  timeZoneStore.set(null);
  await changeLanguage('en');
};
