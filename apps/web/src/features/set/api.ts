import type { EndpointBody } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { type ListQuery, toRequestParams } from '../../lib/list-query';

/** Query keys of the mining-pool screens; writes invalidate their `all`. */
export const observerLinkKeys = {
  all: ['observerLink'] as const,
  list: (params: object) => [...observerLinkKeys.all, 'list', params] as const,
};

export const poolSubaccountKeys = {
  all: ['poolSubaccount'] as const,
  list: (params: object) => [...poolSubaccountKeys.all, 'list', params] as const,
};

const quiet = { silent: true } as const;
const write = { successToast: true, quietValidation: true } as const;

/** Observer links of the selected mine, one server page. */
export const useObserverLinks = (query: ListQuery) => {
  const params = toRequestParams(query);
  return useQuery({
    queryKey: observerLinkKeys.list(params),
    queryFn: () => call('observerLinkList', { ...areaScope(), ...params }, quiet),
    placeholderData: keepPreviousData,
  });
};

type ObserverLinkWrite = 'observerLinkCreate' | 'observerLinkDelete';

const useObserverLinkWrite = <N extends ObserverLinkWrite>(name: N) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<N>, 'area_id'>) =>
      call(name, { ...areaScope(), ...body } as never, write),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: observerLinkKeys.all }),
  });
};

export const useCreateObserverLink = () => useObserverLinkWrite('observerLinkCreate');
export const useDeleteObserverLink = () => useObserverLinkWrite('observerLinkDelete');

/** Pool subaccounts of the selected mine, one server page (a platform call: JSON body). */
export const usePoolSubaccounts = (query: ListQuery) => {
  const params = toRequestParams(query);
  return useQuery({
    queryKey: poolSubaccountKeys.list(params),
    queryFn: () => call('poolSubaccountList', { ...areaScope(), ...params }, quiet),
    placeholderData: keepPreviousData,
  });
};

type PoolSubaccountWrite = 'poolSubaccountSave' | 'poolSubaccountRemove';

const usePoolSubaccountWrite = <N extends PoolSubaccountWrite>(name: N) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<N>, 'area_id'>) =>
      call(name, { ...areaScope(), ...body } as never, write),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: poolSubaccountKeys.all }),
  });
};

export const useSavePoolSubaccount = () => usePoolSubaccountWrite('poolSubaccountSave');
export const useRemovePoolSubaccount = () => usePoolSubaccountWrite('poolSubaccountRemove');
