import { MinerListQuerySchema } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { tableChangeToQuery } from '../components/server-table-mapping';
import {
  ignoredParams,
  nextListQuery,
  parseListQuery,
  sortOrderOf,
  toRequestParams,
  writeListQuery,
} from './list-query';

const config = { filterKeys: ['status', 'keyword'] as const, defaultLimit: 20 };

describe('list query in the URL', () => {
  it('reads page, limit, sort and the list filters, ignoring other parameters', () => {
    const query = parseListQuery(
      new URLSearchParams('page=3&limit=50&sort=-hashrate&status=online&id=9'),
      config,
    );
    expect(query).toEqual({ page: 3, limit: 50, sort: '-hashrate', filters: { status: 'online' } });
  });

  it('falls back to page 1 and the default size on bad numbers, and caps the size at 500', () => {
    expect(parseListQuery(new URLSearchParams('page=-2&limit=abc'), config)).toMatchObject({
      page: 1,
      limit: 20,
    });
    expect(parseListQuery(new URLSearchParams('limit=100000'), config).limit).toBe(500);
  });

  it('writes only what differs from the defaults and keeps unrelated parameters', () => {
    const next = writeListQuery(
      new URLSearchParams('id=4&page=9'),
      { page: 1, limit: 20, sort: 'name', filters: { status: '', keyword: 'S19' } },
      config,
    );
    expect(next.toString()).toBe('id=4&sort=name&keyword=S19');
  });

  it('goes back to page 1 when a filter, the sort or the page size changes', () => {
    const on5 = { page: 5, limit: 20, sort: 'name', filters: { status: 'online' } };
    expect(nextListQuery(on5, { filters: { status: 'offline' } }).page).toBe(1);
    expect(nextListQuery(on5, { filters: { keyword: 'x' } })).toMatchObject({
      page: 1,
      filters: { status: 'online', keyword: 'x' },
    });
    expect(nextListQuery(on5, { sort: '-name' }).page).toBe(1);
    expect(nextListQuery(on5, { limit: 50 }).page).toBe(1);
    expect(nextListQuery(on5, { page: 6 }).page).toBe(6);
    expect(nextListQuery(on5, { page: 6, filters: { status: 'online' } }).page).toBe(6);
  });

  it('flattens a query into request parameters without empty filters', () => {
    expect(
      toRequestParams({ page: 2, limit: 10, sort: '-ip', filters: { status: undefined, keyword: 'a' } }),
    ).toEqual({
      page: 2,
      limit: 10,
      sort: '-ip',
      keyword: 'a',
    });
  });
});

describe('antd table changes', () => {
  const columns = [
    { key: 'name', sortField: 'name' },
    { key: 'status', filterName: 'status' },
    { key: 'power', sortField: 'power' },
  ];

  it('maps a descending sort on a column to -field', () => {
    const change = tableChangeToQuery(
      {
        pagination: { current: 1, pageSize: 20 },
        filters: {},
        sorter: { columnKey: 'power', order: 'descend' },
      },
      columns,
    );
    expect(change.sort).toBe('-power');
    expect(sortOrderOf('-power', 'power')).toBe('descend');
    expect(sortOrderOf('-power', 'name')).toBeNull();
  });

  it('maps a header filter to its parameter and a cleared one to no filter', () => {
    const set = tableChangeToQuery(
      { pagination: { current: 4, pageSize: 20 }, filters: { status: ['offline'] }, sorter: {} },
      columns,
    );
    expect(set.filters).toEqual({ status: 'offline' });
    expect(set.sort).toBeUndefined();
    const cleared = tableChangeToQuery(
      { pagination: { current: 1 }, filters: { status: null }, sorter: {} },
      columns,
    );
    expect(cleared.filters).toEqual({ status: undefined });
    expect(cleared).not.toHaveProperty('limit');
  });

  it('resets to page 1 when antd reports a filter change on page 4', () => {
    const previous = { page: 4, limit: 20, filters: {} };
    const change = tableChangeToQuery(
      { pagination: { current: 4, pageSize: 20 }, filters: { status: ['online'] }, sorter: {} },
      columns,
    );
    expect(nextListQuery(previous, change)).toMatchObject({ page: 1, filters: { status: 'online' } });
  });
});

describe('a link with filter values the list does not know', () => {
  const config = { filterKeys: ['status', 'model'], schema: MinerListQuerySchema };

  it('leaves them out of the request and names them, keeping the values it knows', () => {
    const search = new URLSearchParams('status=1&model=S19%20Pro&sort=-bogus&page=2');
    expect(parseListQuery(search, config)).toEqual({
      page: 2,
      limit: 20,
      sort: undefined,
      filters: { model: 'S19 Pro' },
    });
    expect(ignoredParams(search, config)).toEqual([
      { key: 'status', value: '1' },
      { key: 'sort', value: '-bogus' },
    ]);
  });

  it('ignores nothing when every value is one the list knows', () => {
    const search = new URLSearchParams('status=online&sort=-hashrate_realtime');
    expect(parseListQuery(search, config)).toMatchObject({
      sort: '-hashrate_realtime',
      filters: { status: 'online' },
    });
    expect(ignoredParams(search, config)).toEqual([]);
  });
});
