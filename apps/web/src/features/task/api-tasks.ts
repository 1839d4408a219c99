import type {
  RebootKind,
  RebootTaskAddBody,
  RebootTaskUpdateBody,
  TaskTransition,
  TempTaskAddBody,
  TempTaskUpdateBody,
} from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, download } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { groupKeys, taskKeys } from './keys';

const quiet = { silent: true } as const;
const form = { successToast: true, quietValidation: true } as const;

/** Queue and history refresh every 10 s while the page is visible, so a running task's progress shows. */
export const TASK_POLL_MS = 10_000;

/** Which task screen: a reboot kind (miner or PDU) or the temperature tasks. */
export type TaskFamily = { family: 'reboot'; kind: RebootKind } | { family: 'temp' };
const familyKey = (f: TaskFamily) => (f.family === 'reboot' ? `reboot-${f.kind}` : 'temp');
const kindOf = (f: TaskFamily) => (f.family === 'reboot' ? { kind: f.kind } : {});

export interface Paging {
  page: number;
  limit: number;
}

export const useRebootQueue = (kind: RebootKind, paging: Paging) => {
  const params = { kind, ...paging };
  return useQuery({
    queryKey: taskKeys.queue(`reboot-${kind}`, params),
    queryFn: () => call('rebootTaskList', { ...areaScope(), ...params }, quiet),
    placeholderData: keepPreviousData,
    refetchInterval: TASK_POLL_MS,
  });
};

export const useTempQueue = (paging: Paging) =>
  useQuery({
    queryKey: taskKeys.queue('temp', paging),
    queryFn: () => call('tempTaskList', { ...areaScope(), ...paging }, quiet),
    placeholderData: keepPreviousData,
    refetchInterval: TASK_POLL_MS,
  });

/** The tasks a history filter offers (the queue's first 500). */
export const useTaskChoices = (f: TaskFamily) =>
  useQuery({
    queryKey: taskKeys.queue(familyKey(f), { page: 1, limit: 500 }),
    queryFn: async () => {
      const page = { page: 1, limit: 500 };
      const result =
        f.family === 'reboot'
          ? await call('rebootTaskList', { ...areaScope(), kind: f.kind, ...page }, quiet)
          : await call('tempTaskList', { ...areaScope(), ...page }, quiet);
      return result.items.map((task) => ({ id: task.id, name: task.name }));
    },
    staleTime: TASK_POLL_MS,
  });

export interface HistoryFilter {
  task_id?: number;
  from?: number;
  to?: number;
}

export const useTaskHistory = (f: TaskFamily, filter: HistoryFilter, paging: Paging) => {
  const params = { ...kindOf(f), ...filter, ...paging };
  return useQuery({
    queryKey: taskKeys.history(familyKey(f), params),
    queryFn: () =>
      f.family === 'reboot'
        ? call('rebootTaskHistoryList', { ...areaScope(), kind: f.kind, ...filter, ...paging }, quiet)
        : call('tempTaskHistoryList', { ...areaScope(), ...filter, ...paging }, quiet),
    placeholderData: keepPreviousData,
    refetchInterval: TASK_POLL_MS,
  });
};

/** What a detail shows: the actions of one run, or of a whole task. */
export type ItemsScope = { run_id: number } | { task_id: number };

export const useTaskItems = (f: TaskFamily, scope: ItemsScope | null, paging: Paging) => {
  const params = { ...scope, ...paging };
  return useQuery({
    queryKey: taskKeys.items(familyKey(f), params),
    queryFn: () =>
      call(
        f.family === 'reboot' ? 'rebootTaskHistoryItems' : 'tempTaskHistoryItems',
        { ...areaScope(), ...params },
        quiet,
      ),
    enabled: scope !== null,
    placeholderData: keepPreviousData,
    refetchInterval: TASK_POLL_MS,
  });
};

export type ExportFormat = 'csv' | 'xlsx';

/** A failed download has been shown as a toast already. */
const shown = () => undefined;

/** Downloads the history of the current filter. */
export const exportHistory = (f: TaskFamily, filter: HistoryFilter, format: ExportFormat) =>
  (f.family === 'reboot'
    ? download(
        'rebootTaskHistoryExport',
        { ...areaScope(), kind: f.kind, ...filter, format },
        `${f.kind}-reboot-history.${format}`,
      )
    : download(
        'tempTaskHistoryExport',
        { ...areaScope(), ...filter, format },
        `temperature-history.${format}`,
      )
  ).catch(shown);

/** Downloads the actions of a run or a task. */
export const exportItems = (f: TaskFamily, scope: ItemsScope, format: ExportFormat) =>
  download(
    f.family === 'reboot' ? 'rebootTaskHistoryItemsExport' : 'tempTaskHistoryItemsExport',
    { ...areaScope(), ...scope, format },
    `${familyKey(f)}-task-detail.${format}`,
  ).catch(shown);

const useInvalidateTasks = () => {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: taskKeys.all }),
      // Groups show how many tasks use them.
      queryClient.invalidateQueries({ queryKey: groupKeys.all }),
    ]);
};

/**
 * Start, stop or delete a task (each after the user confirmed). `restore`: a temperature task's stop
 * or delete also switches the miners it left in low power mode back to high.
 */
export const useTaskTransition = (f: TaskFamily) => {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: async ({
      id,
      transition,
      restore = false,
    }: {
      id: number;
      transition: TaskTransition;
      restore?: boolean;
    }): Promise<unknown> => {
      const body = { ...areaScope(), id };
      const options = { successToast: true };
      if (f.family === 'reboot') {
        if (transition === 'start') return call('rebootTaskStart', body, options);
        if (transition === 'stop') return call('rebootTaskStop', body, options);
        return call('rebootTaskDelete', body, options);
      }
      if (transition === 'start') return call('tempTaskStart', body, options);
      if (transition === 'stop') return call('tempTaskStop', { ...body, restore }, options);
      return call('tempTaskDelete', { ...body, restore }, options);
    },
    onSuccess: invalidate,
  });
};

type Without<T> = Omit<T, 'area_id'>;

/** Creates a reboot task, or updates it when the body has an id. */
export const useSaveRebootTask = () => {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (body: Without<RebootTaskAddBody> | Without<RebootTaskUpdateBody>) =>
      'id' in body
        ? call('rebootTaskUpdate', { ...areaScope(), ...body }, form)
        : call('rebootTaskAdd', { ...areaScope(), ...body }, form),
    onSuccess: invalidate,
  });
};

/** Creates a temperature task, or updates it when the body has an id. */
export const useSaveTempTask = () => {
  const invalidate = useInvalidateTasks();
  return useMutation({
    mutationFn: (body: Without<TempTaskAddBody> | Without<TempTaskUpdateBody>) =>
      'id' in body
        ? call('tempTaskUpdate', { ...areaScope(), ...body }, form)
        : call('tempTaskAdd', { ...areaScope(), ...body }, form),
    onSuccess: invalidate,
  });
};
