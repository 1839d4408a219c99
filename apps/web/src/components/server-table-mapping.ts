import type { Key } from 'react';
import type { ListQuery, SortOrder } from '../lib/list-query';
import { toSortParam } from '../lib/list-query';

/** What a ServerTable column needs to know to map antd's header controls to the list contract. */
export interface ColumnMapping {
  key: string;
  /** Sort field sent to the server (`sort=field` / `-field`); the column is not sortable without it. */
  sortField?: string;
  /** Filter parameter set by the column's header filter. */
  filterName?: string;
}

export interface TableChange {
  pagination: { current?: number; pageSize?: number };
  filters: Record<string, (Key | boolean)[] | null>;
  sorter: { columnKey?: Key; order?: SortOrder | null } | { columnKey?: Key; order?: SortOrder | null }[];
}

/**
 * antd's `onChange(pagination, filters, sorter)` as a change of the list query. Only the columns'
 * own filters are touched, so filters set outside the table (search box, selects) stay.
 */
export const tableChangeToQuery = (
  change: TableChange,
  columns: readonly ColumnMapping[],
): Partial<ListQuery> => {
  const sorter = Array.isArray(change.sorter) ? change.sorter[0] : change.sorter;
  const sortColumn = columns.find((column) => column.key === String(sorter?.columnKey ?? ''));
  const filters: ListQuery['filters'] = {};
  for (const column of columns) {
    if (!column.filterName) continue;
    const values = change.filters[column.key];
    filters[column.filterName] = values && values.length > 0 ? String(values[0]) : undefined;
  }
  const next: Partial<ListQuery> = {
    page: change.pagination.current ?? 1,
    sort: toSortParam(sortColumn?.sortField, sorter?.order),
    filters,
  };
  if (change.pagination.pageSize) next.limit = change.pagination.pageSize;
  return next;
};
