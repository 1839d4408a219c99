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
  screen: (kind: ScreenKind, address: BoardAddress) => [...boardKeys.screens(), kind, address] as const,
};

type ScreenKind = 'data' | 'miners' | 'tanks' | 'test';

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
 * What a full-screen board shows, read with `read`. The mine is the board's (from its address), not
 * the console's selected one: a board opens in a tab of its own. Live messages refresh it; it
 * polls only while the socket is down.
 */
const useBoardScreen = <T>(kind: ScreenKind, address: BoardAddress, read: () => Promise<T>) =>
  useQuery({
    queryKey: boardKeys.screen(kind, address),
    queryFn: read,
    enabled: address.named,
    refetchInterval: fallbackRefetchInterval,
  });

/** A board's own address as a signed-in call names it. */
const own = (address: BoardAddress) => ({ area_id: address.areaId, id: address.id });

/** What a data board (or the new data board) shows; by its kiosk token on a kiosk link. */
export const useDataBoard = (address: BoardAddress) =>
  useBoardScreen('data', address, () =>
    address.kiosk
      ? call('kioskDataBoard', { token: address.kiosk }, quiet)
      : call('dataBoard', own(address), quiet),
  );

/** What a miner board (site map) shows: every miner of the board's FBOXes in its place. */
export const useMinerBoard = (address: BoardAddress) =>
  useBoardScreen('miners', address, () =>
    address.kiosk
      ? call('kioskMinerBoard', { token: address.kiosk }, quiet)
      : call('minerBoard', own(address), quiet),
  );

/** What a tank board shows: every tank of the board's FBOXes against the alert rules' thresholds. */
export const useTankBoard = (address: BoardAddress) =>
  useBoardScreen('tanks', address, () =>
    address.kiosk
      ? call('kioskTankBoard', { token: address.kiosk }, quiet)
      : call('tankBoard', own(address), quiet),
  );

/** What a miner commissioning board shows: each miner's test over the board's window. */
export const useTestBoard = (address: BoardAddress) =>
  useBoardScreen('test', address, () =>
    address.kiosk
      ? call('kioskTestBoard', { token: address.kiosk }, quiet)
      : call('testBoard', own(address), quiet),
  );

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
