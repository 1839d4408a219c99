import type { EndpointBody } from '@fbox/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { fallbackRefetchInterval } from '../../lib/live-socket';
import type { BoardAddress } from './board-types';

const quiet = { silent: true } as const;

/**
 * Query keys of the boards; writes invalidate `all`. Live messages invalidate only `screens` (what
 * the full-screen boards show): the list does not change with the devices.
 */
export const boardKeys = {
  all: ['board'] as const,
  list: (areaId: number) => [...boardKeys.all, 'list', areaId] as const,
  screens: () => [...boardKeys.all, 'screen'] as const,
  screen: (address: BoardAddress) => [...boardKeys.screens(), 'data', address] as const,
  minerScreen: (address: BoardAddress) => [...boardKeys.screens(), 'miners', address] as const,
  tankScreen: (address: BoardAddress) => [...boardKeys.screens(), 'tanks', address] as const,
  testScreen: (address: BoardAddress) => [...boardKeys.screens(), 'test', address] as const,
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
export const useDataBoard = (address: BoardAddress) =>
  useQuery({
    queryKey: boardKeys.screen(address),
    queryFn: () =>
      address.kiosk
        ? call('kioskDataBoard', { token: address.kiosk }, quiet)
        : call('dataBoard', { area_id: address.areaId, id: address.id }, quiet),
    enabled: address.named,
    refetchInterval: fallbackRefetchInterval,
  });

/**
 * What a miner board (site map) shows: every miner of the board's FBOXes in its place with its
 * last readings. Like the data board: the board's own mine, refreshed by live messages, polled only
 * while the socket is down.
 */
export const useMinerBoard = (address: BoardAddress) =>
  useQuery({
    queryKey: boardKeys.minerScreen(address),
    queryFn: () =>
      address.kiosk
        ? call('kioskMinerBoard', { token: address.kiosk }, quiet)
        : call('minerBoard', { area_id: address.areaId, id: address.id }, quiet),
    enabled: address.named,
    refetchInterval: fallbackRefetchInterval,
  });

/**
 * What a tank board shows: every tank of the board's FBOXes with its readings against the alert
 * rules' thresholds. Like the data board: the board's own mine, refreshed by live messages.
 */
export const useTankBoard = (address: BoardAddress) =>
  useQuery({
    queryKey: boardKeys.tankScreen(address),
    queryFn: () =>
      address.kiosk
        ? call('kioskTankBoard', { token: address.kiosk }, quiet)
        : call('tankBoard', { area_id: address.areaId, id: address.id }, quiet),
    enabled: address.named,
    refetchInterval: fallbackRefetchInterval,
  });

/**
 * What a miner commissioning board shows: each miner of the board's FBOXes with its test over the
 * board's window. Live messages refresh it like the other boards.
 */
export const useTestBoard = (address: BoardAddress) =>
  useQuery({
    queryKey: boardKeys.testScreen(address),
    queryFn: () =>
      address.kiosk
        ? call('kioskTestBoard', { token: address.kiosk }, quiet)
        : call('testBoard', { area_id: address.areaId, id: address.id }, quiet),
    enabled: address.named,
    refetchInterval: fallbackRefetchInterval,
  });

/** Makes a board's kiosk link (a new one replaces the old); the token comes back this once. */
export const useCreateKiosk = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('boardKioskCreate', { ...areaScope(), id }, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKeys.all }),
  });
};

/** Ends a board's kiosk link at once. */
export const useRevokeKiosk = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('boardKioskRevoke', { ...areaScope(), id }, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: boardKeys.all }),
  });
};
