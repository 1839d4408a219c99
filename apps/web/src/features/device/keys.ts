/**
 * Query keys of the device feature. Live updates (app/live-updates) invalidate by these prefixes, so
 * every query of a kind sits under its `all`.
 */
export const fboxKeys = {
  all: ['fbox'] as const,
  lists: () => [...fboxKeys.all, 'list'] as const,
  list: (params: object) => [...fboxKeys.lists(), params] as const,
  options: () => [...fboxKeys.all, 'options'] as const,
  details: () => [...fboxKeys.all, 'detail'] as const,
  detail: (id: number) => [...fboxKeys.details(), id] as const,
  history: (id: number, range: string, interval: number) =>
    [...fboxKeys.all, 'history', id, range, interval] as const,
  meters: (id: number) => [...fboxKeys.all, 'meters', id] as const,
};

export const tankKeys = {
  all: ['tank'] as const,
  lists: () => [...tankKeys.all, 'list'] as const,
  list: (params: object) => [...tankKeys.lists(), params] as const,
  options: (fboxId: number) => [...tankKeys.all, 'options', fboxId] as const,
  details: () => [...tankKeys.all, 'detail'] as const,
  detail: (id: number) => [...tankKeys.details(), id] as const,
  history: (id: number, range: string, interval: number) =>
    [...tankKeys.all, 'history', id, range, interval] as const,
};

export const minerKeys = {
  all: ['miner'] as const,
  lists: () => [...minerKeys.all, 'list'] as const,
  list: (params: object) => [...minerKeys.lists(), params] as const,
  filterOptions: () => [...minerKeys.all, 'filterOptions'] as const,
  details: () => [...minerKeys.all, 'detail'] as const,
  detail: (id: number) => [...minerKeys.details(), id] as const,
  history: (id: number, range: string, interval: number) =>
    [...minerKeys.all, 'history', id, range, interval] as const,
};

export const commandKeys = {
  all: ['command'] as const,
  status: (ids: readonly string[]) => [...commandKeys.all, 'status', ids] as const,
};
