/**
 * Query keys of the task feature. Mutations invalidate by these prefixes: a group change touches the
 * groups and the tasks (their miner counts), a task change its queue and history.
 */
export const groupKeys = {
  all: ['minerGroup'] as const,
  lists: () => [...groupKeys.all, 'list'] as const,
  list: (params: object) => [...groupKeys.lists(), params] as const,
  one: (id: number) => [...groupKeys.all, 'one', id] as const,
  miners: (params: object) => [...groupKeys.all, 'miners', params] as const,
};

export const taskKeys = {
  all: ['task'] as const,
  queue: (family: string, params: object) => [...taskKeys.all, family, 'queue', params] as const,
  history: (family: string, params: object) => [...taskKeys.all, family, 'history', params] as const,
  items: (family: string, params: object) => [...taskKeys.all, family, 'items', params] as const,
};
