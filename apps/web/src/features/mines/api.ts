import type { Area, AreaCreateBody } from '@fbox/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { getCachedAreas, getSelectedAreaId, rememberAreas, selectArea } from '../../lib/session';

/** Query keys of mines (areas). */
export const areaKeys = {
  all: ['area'] as const,
  list: () => [...areaKeys.all, 'list'] as const,
};

/** Reads the mines and keeps the list and the selected one in localStorage (spec §3). */
export const fetchAreas = async (): Promise<Area[]> => {
  const areas = await call('areaList', {});
  rememberAreas(areas);
  return areas;
};

export const areaListQuery = () =>
  queryOptions({ queryKey: areaKeys.list(), queryFn: fetchAreas, staleTime: 60_000 });

export const useAreaList = () => {
  const cached = getCachedAreas();
  return useQuery({ ...areaListQuery(), placeholderData: cached.length > 0 ? cached : undefined });
};

/** The selected mine: the stored id if it is still in the list, else the first one. */
export const useSelectedArea = (): Area | undefined => {
  const { data } = useAreaList();
  const id = getSelectedAreaId();
  return data?.find((area) => area.id === id) ?? data?.[0];
};

/** Creates a mine (master accounts) and selects it. */
export const useCreateArea = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AreaCreateBody) =>
      call('areaCreate', body, { successToast: true, quietValidation: true }),
    onSuccess: (area) => {
      selectArea(area);
      return queryClient.invalidateQueries({ queryKey: areaKeys.all });
    },
  });
};
