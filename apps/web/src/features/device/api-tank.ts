import type { EndpointBody } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { type ListQuery, toRequestParams } from '../../lib/list-query';
import { fallbackRefetchInterval } from '../../lib/live-socket';
import { type HistoryInterval, type HistoryRange, historyWindow } from './history';
import { fboxKeys, tankKeys } from './keys';

const quiet = { silent: true } as const;

export const useTankList = (query: ListQuery, enabled = true) => {
  const params = toRequestParams(query);
  return useQuery({
    queryKey: tankKeys.list(params),
    queryFn: () => call('tankList', { ...areaScope(), ...params }, quiet),
    placeholderData: keepPreviousData,
    refetchInterval: fallbackRefetchInterval,
    enabled,
  });
};

export const useTankDetail = (id: number) =>
  useQuery({
    queryKey: tankKeys.detail(id),
    queryFn: () => call('tankDetail', { ...areaScope(), id }, quiet),
    enabled: id > 0,
    refetchInterval: fallbackRefetchInterval,
  });

/** Tanks of one FBOX, for the miner filter. */
export const useTankOptions = (fboxId: number | undefined) =>
  useQuery({
    queryKey: tankKeys.options(fboxId ?? 0),
    queryFn: () => call('tankOptions', { ...areaScope(), fbox_id: fboxId ?? 0 }, quiet),
    enabled: (fboxId ?? 0) > 0,
    staleTime: 60_000,
  });

export const useTankHistory = (id: number, range: HistoryRange, interval: HistoryInterval) =>
  useQuery({
    queryKey: tankKeys.history(id, range, interval),
    queryFn: () => call('tankHistory', { ...areaScope(), id, ...historyWindow(range, interval) }, quiet),
    enabled: id > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

type TankWrite = 'tankAdd' | 'tankEdit' | 'tankDelete';

const useTankWrite = <N extends TankWrite>(name: N) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<N>, 'area_id'>) =>
      call(name, { ...areaScope(), ...body } as never, { successToast: true, quietValidation: true }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: tankKeys.all }),
        queryClient.invalidateQueries({ queryKey: fboxKeys.details() }),
      ]),
  });
};

export const useAddTank = () => useTankWrite('tankAdd');
export const useEditTank = () => useTankWrite('tankEdit');
export const useDeleteTank = () => useTankWrite('tankDelete');

type TankCommand = 'tankOilSetting' | 'tankControllerSwitch' | 'tankControllerSwitchV2';

/** A tank control: the answer is the command it issued, followed live until acknowledged or failed. */
export const useTankCommand = <N extends TankCommand>(name: N) =>
  useMutation({
    mutationFn: (body: Omit<EndpointBody<N>, 'area_id'>) => call(name, { ...areaScope(), ...body } as never),
  });
