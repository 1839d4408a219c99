import type { ListQuery } from '../../lib/list-query';
import { storage } from '../../lib/storage';

/**
 * Saved views of the miner list: a name for a set of filters, a sort and the columns shown, so a
 * look an operator takes daily ("under-hashing") is one click and shows only the columns it needs.
 * Kept in this browser, like the column choice.
 */
export interface ListView {
  name: string;
  filters: Record<string, string>;
  sort?: string;
  /** Hidden column keys. */
  hidden: string[];
}

const storageKey = 'fbox.views.miner-list';
export const viewNameMax = 50;

/** What the under-hashing view shows: who, where, and how far below its hashrate each miner is. */
const underHashingColumns = [
  'worker',
  'ip',
  'status',
  'fbox_name',
  'tank_name',
  'hashrate_theoretical',
  'hashrate_realtime',
  'hashrate_avg',
  'chip_max_temp',
  'fault',
  'actions',
];

/** Online miners below 90 % of their theoretical hashrate, lowest first. */
export const underHashingView = (name: string, columnKeys: readonly string[]): ListView => ({
  name,
  filters: { status: 'online', under_pct: '90' },
  sort: 'hashrate_realtime',
  hidden: columnKeys.filter((key) => !underHashingColumns.includes(key)),
});

export const readViews = (): ListView[] => {
  const stored = storage.read<unknown>(storageKey, []);
  return Array.isArray(stored) ? (stored as ListView[]).filter((v) => typeof v?.name === 'string') : [];
};

export const writeViews = (views: ListView[]): void => storage.write(storageKey, views);

/** Why a view name cannot be saved: empty, too long, or taken (names are compared trimmed). */
export const viewNameProblem = (
  name: string,
  taken: readonly string[],
): 'required' | 'tooLong' | 'taken' | null => {
  const trimmed = name.trim();
  if (trimmed === '') return 'required';
  if (trimmed.length > viewNameMax) return 'tooLong';
  if (taken.some((other) => other.trim() === trimmed)) return 'taken';
  return null;
};

/** The view of the list's current filters, sort and columns. */
export const viewOf = (name: string, query: ListQuery, hidden: readonly string[]): ListView => ({
  name: name.trim(),
  filters: Object.fromEntries(
    Object.entries(query.filters).filter((entry): entry is [string, string] => Boolean(entry[1])),
  ),
  ...(query.sort ? { sort: query.sort } : {}),
  hidden: [...hidden],
});

/** Whether the list shows exactly a view's filters and sort (columns may have been changed since). */
export const isShowing = (view: ListView, query: ListQuery): boolean => {
  const current = viewOf('', query, []).filters;
  const keys = new Set([...Object.keys(current), ...Object.keys(view.filters)]);
  return (
    [...keys].every((key) => current[key] === view.filters[key]) && (query.sort ?? '') === (view.sort ?? '')
  );
};
