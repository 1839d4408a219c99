import { useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { fallbackRefetchInterval } from '../../lib/live-socket';

/** Query keys of Home. */
export const homeKeys = {
  all: ['home'] as const,
  index: (areaId: number) => [...homeKeys.all, 'index', areaId] as const,
};

/** Counts, totals and 24 h series of the selected mine (`fbox.total/getappindex`). */
export const useAppIndex = (areaId: number | undefined) =>
  useQuery({
    queryKey: homeKeys.index(areaId ?? 0),
    queryFn: () => call('appIndex', areaScope(), { silent: true }),
    enabled: (areaId ?? 0) > 0,
    refetchInterval: fallbackRefetchInterval,
  });
