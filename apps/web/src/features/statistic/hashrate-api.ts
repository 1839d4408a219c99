import type { EndpointQuery } from '@fbox/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';

const quiet = { silent: true } as const;

export type HashrateQuery = Omit<EndpointQuery<'hashrateOverview'>, 'area_id'>;

export const hashrateKeys = {
  all: ['hashrateOverview'] as const,
  overview: (areaId: number, q: HashrateQuery) => [...hashrateKeys.all, 'overview', areaId, q] as const,
  worst: (areaId: number, from: number, to: number) =>
    [...hashrateKeys.all, 'worst', areaId, from, to] as const,
};

/** The selected mine's hashrate per bucket and split for a range. */
export const useHashrateOverview = (q: HashrateQuery) => {
  const scope = areaScope();
  return useQuery({
    queryKey: hashrateKeys.overview(scope.area_id, q),
    queryFn: () => call('hashrateOverview', { ...scope, ...q }, quiet),
    placeholderData: keepPreviousData,
  });
};

/** The miners that cost the most hashrate over the range. */
export const useWorstMiners = (from: number, to: number) => {
  const scope = areaScope();
  return useQuery({
    queryKey: hashrateKeys.worst(scope.area_id, from, to),
    queryFn: () => call('hashrateWorstMiners', { ...scope, from, to, limit: 20 }, quiet),
    placeholderData: keepPreviousData,
  });
};
