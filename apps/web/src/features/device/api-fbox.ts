import type { EndpointBody } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { type ListQuery, toRequestParams } from '../../lib/list-query';
import { fallbackRefetchInterval } from '../../lib/live-socket';
import { type HistoryInterval, type HistoryRange, historyWindow } from './history';
import { fboxKeys, tankKeys } from './keys';

const quiet = { silent: true } as const;
const form = { successToast: true, quietValidation: true } as const;

/** FBOX list page (server-paged). Live updates refresh it; it polls only while the socket is down. */
export const useFboxList = (query: ListQuery) => {
  const params = toRequestParams(query);
  return useQuery({
    queryKey: fboxKeys.list(params),
    queryFn: () => call('fboxList', { ...areaScope(), ...params }, quiet),
    placeholderData: keepPreviousData,
    refetchInterval: fallbackRefetchInterval,
  });
};

export const useFboxDetail = (id: number) =>
  useQuery({
    queryKey: fboxKeys.detail(id),
    queryFn: () => call('fboxDetail', { ...areaScope(), id }, quiet),
    enabled: id > 0,
    refetchInterval: fallbackRefetchInterval,
  });

/** FBOX names for filter and form selects. */
export const useFboxOptions = () =>
  useQuery({
    queryKey: fboxKeys.options(),
    queryFn: () => call('fboxOptions', areaScope(), quiet),
    staleTime: 60_000,
  });

export const useFboxHistory = (id: number, range: HistoryRange, interval: HistoryInterval) =>
  useQuery({
    queryKey: fboxKeys.history(id, range, interval),
    queryFn: () => call('fboxHistory', { ...areaScope(), id, ...historyWindow(range, interval) }, quiet),
    enabled: id > 0,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

const useFboxMutation = <N extends 'fboxCreate' | 'fboxEdit' | 'fboxDelete' | 'fboxTransfer' | 'fboxSetting'>(
  name: N,
) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<N>, 'area_id'>) =>
      call(name, { ...areaScope(), ...body } as never, form),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: fboxKeys.all }),
        queryClient.invalidateQueries({ queryKey: tankKeys.all }),
      ]),
  });
};

export const useCreateFbox = () => useFboxMutation('fboxCreate');
export const useEditFbox = () => useFboxMutation('fboxEdit');
export const useDeleteFbox = () => useFboxMutation('fboxDelete');
export const useTransferFbox = () => useFboxMutation('fboxTransfer');
export const useFboxSetting = () => useFboxMutation('fboxSetting');

/** New MQTT password for the gateway (masters); the old one stops working. */
export const useRegenerateMqtt = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call('fboxRegenerateMqtt', { ...areaScope(), id }, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: fboxKeys.detail(id) }),
  });
};

/** Meter number/ratio, and the reset command when `reset` is on. */
export const useSetMeter = (fboxId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'electricitySetMeter'>, 'area_id' | 'fbox_id'>) =>
      call('electricitySetMeter', { ...areaScope(), fbox_id: fboxId, ...body }, form),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: fboxKeys.detail(fboxId) }),
        queryClient.invalidateQueries({ queryKey: fboxKeys.meters(fboxId) }),
      ]),
  });
};

/** Meter readings entered by hand for a box, newest first. */
export const useMeterCorrections = (fboxId: number) =>
  useQuery({
    queryKey: fboxKeys.meters(fboxId),
    queryFn: () => call('meterCorrections', { ...areaScope(), fbox_id: fboxId }, quiet),
  });
