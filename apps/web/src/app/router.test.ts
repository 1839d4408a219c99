import type { LoaderFunctionArgs } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, startSession } from '../lib/session';
import { markOpened } from './opening';
import { firstPageWaitMs, prefetchLoader } from './router';

const args = (path: string) =>
  ({ request: new Request(`http://console.test${path}`), params: {} }) as unknown as LoaderFunctionArgs;

/** A prefetch that settles only when the test says so. */
const held = () => {
  let settle!: () => void;
  const calls: string[] = [];
  const done = new Promise<void>((resolve) => {
    settle = resolve;
  });
  const prefetch = (url: URL) => {
    calls.push(url.pathname + url.search);
    return done;
  };
  return { prefetch, calls, settle };
};

const resolved = async (promise: Promise<unknown>) => {
  let state = false;
  void promise.then(() => {
    state = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return state;
};

beforeEach(() => {
  vi.useFakeTimers();
  startSession('token');
});
afterEach(() => {
  vi.useRealTimers();
  clearSession();
});

// One sequence: "opening" is the document's state, once per page load.
describe('page prefetch loader', () => {
  it('holds the first page for its request (at most firstPageWaitMs), never a later one', async () => {
    const first = held();
    const opening = prefetchLoader(first.prefetch)(args('/device/machineList?page=2'));
    expect(first.calls).toEqual(['/device/machineList?page=2']);
    expect(await resolved(opening)).toBe(false);
    first.settle();
    expect(await resolved(opening)).toBe(true);

    markOpened(); // the page rendered
    const next = held();
    const later = prefetchLoader(next.prefetch)(args('/device/machineList'));
    expect(next.calls).toHaveLength(1);
    expect(await resolved(later)).toBe(true);
  });

  it('does not start a request without a session', async () => {
    clearSession();
    const page = held();
    expect(await resolved(prefetchLoader(page.prefetch)(args('/device/machineList')))).toBe(true);
    expect(page.calls).toHaveLength(0);
  });
});

describe('the first page of a fresh document', () => {
  it('renders without its request once firstPageWaitMs have passed', async () => {
    vi.resetModules();
    const fresh = await import('./router');
    const slow = held();
    const opening = fresh.prefetchLoader(slow.prefetch)(args('/device/machineList'));
    await vi.advanceTimersByTimeAsync(firstPageWaitMs - 1);
    expect(await resolved(opening)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await resolved(opening)).toBe(true);
  });
});

describe('pages outside the layout', () => {
  it('are the bare routes of the route table, as the build tells the server', async () => {
    const { routeTable } = await import('./routes');
    const { barePaths } = await import('./bare-paths');
    const bare = routeTable.filter((route) => route.layout === 'bare').map((route) => route.path);
    expect([...bare].sort()).toEqual([...barePaths].sort());
  });
});
