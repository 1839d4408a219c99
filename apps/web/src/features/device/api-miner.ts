import type { MinerBatchResult } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { type ListQuery, toRequestParams } from '../../lib/list-query';
import { fallbackRefetchInterval } from '../../lib/live-socket';
import { type HistoryInterval, type HistoryRange, historyWindow } from './history';
import { commandKeys, fboxKeys, minerKeys, tankKeys } from './keys';

const quiet = { silent: true } as const;

/** One page of the miner list: its cache key and request. */
export const minerListQuery = (query: ListQuery) => {
  const params = toRequestParams(query);
  return {
    queryKey: minerKeys.list(params),
    queryFn: () => call('minerList', { ...areaScope(), ...params }, quiet),
  };
};

export const useMinerList = (query: ListQuery, enabled = true) =>
  useQuery({
    ...minerListQuery(query),
    placeholderData: keepPreviousData,
    refetchInterval: fallbackRefetchInterval,
    enabled,
  });

export const useMinerDetail = (id: number) =>
  useQuery({
    queryKey: minerKeys.detail(id),
    queryFn: () => call('minerDetail', { ...areaScope(), id }, quiet),
    enabled: id > 0,
    refetchInterval: fallbackRefetchInterval,
  });

/** Distinct models, brands, pools and faults of the mine, for the filter selects. */
export const useMinerFilterOptions = () =>
  useQuery({
    queryKey: minerKeys.filterOptions(),
    queryFn: () => call('minerFilterOptions', areaScope(), quiet),
    staleTime: 60_000,
  });

export const useMinerHistory = (id: number, range: HistoryRange, interval: HistoryInterval) =>
  useQuery({
    queryKey: minerKeys.history(id, range, interval),
    queryFn: () => call('minerHistory', { ...areaScope(), id, ...historyWindow(range, interval) }, quiet),
    enabled: id > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** A bulk miner action as the list offers it. */
export type MinerBulkAction =
  | { kind: 'restart' }
  | { kind: 'mode'; mode: 'high' | 'low' }
  | { kind: 'pool'; pool_address: string; worker: string; password?: string }
  | { kind: 'overclock'; status: 'on' | 'off'; min?: number; max?: number }
  | { kind: 'resave' };

const runAction = (ids: number[], action: MinerBulkAction): Promise<MinerBatchResult> => {
  // Legacy form fields carry id lists as "1,2,3" (IdListSchema).
  const scope = { ...areaScope(), ids: ids.join(',') };
  const options = {};
  switch (action.kind) {
    case 'restart':
      return call('minerRestart', scope, options);
    case 'mode':
      return call('minerChangeMode', { ...scope, mode: action.mode }, options);
    case 'pool': {
      const { kind: _kind, ...pool } = action;
      return call('minerChangePool', { ...scope, ...pool }, options);
    }
    case 'overclock': {
      const { kind: _kind, ...overclock } = action;
      return call('minerAutoOverclock', { ...scope, ...overclock }, options);
    }
    case 'resave':
      return call('minerResaveAccount', scope, options);
  }
};

/** Sends a bulk action; the answer lists each miner's command for the outcome drawer. */
export const useMinerAction = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, action }: { ids: number[]; action: MinerBulkAction }) => runAction(ids, action),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: commandKeys.all }),
  });
};

export const useDeleteMiners = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids }: { ids: number[] }) =>
      call('minerDelete', { ...areaScope(), ids: ids.join(',') }, { successToast: true }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: minerKeys.all }),
        queryClient.invalidateQueries({ queryKey: tankKeys.all }),
        queryClient.invalidateQueries({ queryKey: fboxKeys.all }),
      ]),
  });
};
