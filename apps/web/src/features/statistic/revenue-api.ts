import type { EndpointBody } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';

const quiet = { silent: true } as const;

/** Query keys of the revenue screen; saving the settings makes them stale. */
export const revenueKeys = {
  all: ['revenue'] as const,
  settings: (areaId: number) => [...revenueKeys.all, 'settings', areaId] as const,
  range: (areaId: number, from: string, to: string) =>
    [...revenueKeys.all, 'range', areaId, from, to] as const,
};

/** The selected mine's revenue settings. */
export const useRevenueSettings = () => {
  const scope = areaScope();
  return useQuery({
    queryKey: revenueKeys.settings(scope.area_id),
    queryFn: () => call('revenueSettings', scope, quiet),
  });
};

/** Revenue of the local days `from` … `to` (both included) of the selected mine. */
export const useRevenue = (from: string, to: string) => {
  const scope = areaScope();
  return useQuery({
    queryKey: revenueKeys.range(scope.area_id, from, to),
    queryFn: () => call('revenue', { ...scope, from_day: from, to_day: to }, quiet),
    placeholderData: keepPreviousData,
  });
};

/** Saves the settings (masters and administrators); the figures refresh. */
export const useSaveRevenueSettings = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'revenueSettingsSave'>, 'area_id'>) =>
      call('revenueSettingsSave', { ...areaScope(), ...body }, { successToast: true, quietValidation: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: revenueKeys.all }),
  });
};
