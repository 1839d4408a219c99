import { afterEach, describe, expect, it } from 'vitest';
import { isShowing, readViews, underHashingView, viewNameProblem, viewOf, writeViews } from './miner-views';

const query = (filters: Record<string, string | undefined>, sort?: string) => ({
  page: 3,
  limit: 20,
  filters,
  ...(sort ? { sort } : {}),
});

afterEach(() => window.localStorage.clear());

describe('miner list views', () => {
  it('keeps the filters set, the sort and the hidden columns under a trimmed name', () => {
    const view = viewOf(
      '  Hot rack  ',
      query({ status: 'online', mode: '', fault: undefined }, '-chip_max_temp'),
      ['pool'],
    );
    expect(view).toEqual({
      name: 'Hot rack',
      filters: { status: 'online' },
      sort: '-chip_max_temp',
      hidden: ['pool'],
    });
    writeViews([view]);
    expect(readViews()).toEqual([view]);
  });

  it('knows which view the list shows, whatever the page', () => {
    const under = underHashingView('Under-hashing', ['worker', 'pool', 'hashrate_realtime', 'firmware']);
    expect(under.hidden).toEqual(['pool', 'firmware']);
    expect(isShowing(under, query({ status: 'online', under_pct: '90' }, 'hashrate_realtime'))).toBe(true);
    expect(isShowing(under, query({ status: 'online', under_pct: '80' }, 'hashrate_realtime'))).toBe(false);
    expect(
      isShowing(under, query({ status: 'online', under_pct: '90', mode: 'low' }, 'hashrate_realtime')),
    ).toBe(false);
    expect(isShowing(under, query({ status: 'online', under_pct: '90' }))).toBe(false);
  });

  it('refuses an empty, long or taken name, as typed', () => {
    expect(viewNameProblem('   ', [])).toBe('required');
    expect(viewNameProblem('x'.repeat(51), [])).toBe('tooLong');
    expect(viewNameProblem(' Night shift ', ['Night shift'])).toBe('taken');
    expect(viewNameProblem('Night shift', ['Day shift'])).toBeNull();
  });

  it('reads a broken store as no views', () => {
    window.localStorage.setItem('fbox.views.miner-list', '{"not":"a list"}');
    expect(readViews()).toEqual([]);
  });
});
