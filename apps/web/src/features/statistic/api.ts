import type { EndpointBody, EndpointQuery } from '@fbox/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';

const quiet = { silent: true } as const;

export type PowerQuery = Omit<EndpointQuery<'powerStatistic'>, 'area_id'>;

export const powerKeys = {
  all: ['powerStatistic'] as const,
  statistic: (areaId: number, q: PowerQuery) => [...powerKeys.all, 'statistic', areaId, q] as const,
  prices: (areaId: number) => [...powerKeys.all, 'prices', areaId] as const,
};

/** Energy, cost, peak and efficiency of the selected mine for a range; off while the range is refused. */
export const usePowerStatistic = (q: PowerQuery, enabled: boolean) => {
  const scope = areaScope();
  return useQuery({
    queryKey: powerKeys.statistic(scope.area_id, q),
    queryFn: () => call('powerStatistic', { ...scope, ...q }, quiet),
    placeholderData: keepPreviousData,
    enabled,
  });
};

/** The mine's electricity prices, newest first. */
export const usePrices = () => {
  const scope = areaScope();
  return useQuery({
    queryKey: powerKeys.prices(scope.area_id),
    queryFn: () => call('electricityPriceList', scope, quiet),
  });
};

/** Adds a price from a date; the statistics (their costs) refresh. */
export const useAddPrice = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'electricityPriceAdd'>, 'area_id'>) =>
      call('electricityPriceAdd', { ...areaScope(), ...body }, { successToast: true, quietValidation: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: powerKeys.all }),
  });
};

/** Deletes one price; the statistics refresh. */
export const useDeletePrice = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (validFrom: number) =>
      call('electricityPriceDelete', { ...areaScope(), valid_from: validFrom }, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: powerKeys.all }),
  });
};
