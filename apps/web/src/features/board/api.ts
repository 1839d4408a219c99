import type { EndpointBody } from '@fbox/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { fallbackRefetchInterval } from '../../lib/live-socket';

const quiet = { silent: true } as const;

/**
 * Query keys of the boards; writes invalidate `all`. Live messages invalidate only `screens` (what
 * the full-screen boards show): the list does not change with the devices.
 */
export const boardKeys = {
  all: ['board'] as const,
  list: (areaId: number) => [...boardKeys.all, 'list', areaId] as const,
  screens: () => [...boardKeys.all, 'screen'] as const,
  screen: (areaId: number, id: number) => [...boardKeys.screens(), areaId, id] as const,
  minerScreen: (areaId: number, id: number) => [...boardKeys.screens(), 'miners', areaId, id] as const,
};

/** The boards of the selected mine (at most `boardLimits.perMine`, so not paged). */
export const useBoards = () => {
  const scope = areaScope();
  return useQuery({
    queryKey: boardKeys.list(scope.area_id),
    queryFn: () => call('boardList', scope, quiet),
    select: (page) => page.items,
  });
};

/** Creates a board, or edits the one named by `id`; the lists refresh. */
export const useSaveBoard = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'boardSave'>, 'area_id'>) =>
      call('boardSave', { ...areaScope(), ...body }, { successToast: true, quietValidation: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKeys.all }),
  });
};

export const useDeleteBoard = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('boardDelete', { ...areaScope(), id }, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKeys.all }),
  });
};

/**
 * What a data board shows. The mine is the board's (from its address), not the console's selected
 * one: a board opens in a tab of its own. Live messages refresh it; it polls only while the socket
 * is down.
 */
export const useDataBoard = (areaId: number, id: number) =>
  useQuery({
    queryKey: boardKeys.screen(areaId, id),
    queryFn: () => call('dataBoard', { area_id: areaId, id }, quiet),
    enabled: areaId > 0 && id > 0,
    refetchInterval: fallbackRefetchInterval,
  });

/**
 * What a miner board (site map) shows: every miner of the board's FBOXes in its place with its
 * last readings. Like the data board: the board's own mine, refreshed by live messages, polled only
 * while the socket is down.
 */
export const useMinerBoard = (areaId: number, id: number) =>
  useQuery({
    queryKey: boardKeys.minerScreen(areaId, id),
    queryFn: () => call('minerBoard', { area_id: areaId, id }, quiet),
    enabled: areaId > 0 && id > 0,
    refetchInterval: fallbackRefetchInterval,
  });
