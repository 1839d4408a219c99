import type { Area, EndpointBody } from '@fbox/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryClient as appQueryClient } from '../../app/query-client';
import { call } from '../../lib/api';
import { getCachedAreas, getSelectedAreaId, rememberAreas, selectArea } from '../../lib/session';

/** Query keys of mines (areas): the selector's list, the Manage Mines list and client key records. */
export const areaKeys = {
  all: ['area'] as const,
  list: () => [...areaKeys.all, 'list'] as const,
  manage: () => [...areaKeys.all, 'manage'] as const,
  clients: (areaId: number) => [...areaKeys.all, 'clients', areaId] as const,
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

/**
 * The chosen mine's id; on a first visit (none stored) once the mine list is read, which chooses the
 * first mine as the page will. The list is the session check's own request, shared, not a second.
 */
export const chosenAreaId = async (): Promise<number | undefined> => {
  if (getSelectedAreaId() === undefined) await appQueryClient.ensureQueryData(areaListQuery());
  return getSelectedAreaId();
};

const form = { successToast: true, quietValidation: true } as const;

/** Refreshes every mine list (selector and Manage Mines) after a change. */
const useInvalidateMines = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: areaKeys.all });
};

/**
 * Creates a mine (master accounts). `select` makes it the selected mine (the first mine, created
 * from the home page); the Manage Mines screen keeps the current one.
 */
export const useCreateArea = ({ select = true }: { select?: boolean } = {}) => {
  const invalidate = useInvalidateMines();
  return useMutation({
    mutationFn: (body: EndpointBody<'areaCreate'>) => call('areaCreate', body, form),
    onSuccess: (area) => {
      if (select) selectArea(area);
      return invalidate();
    },
  });
};

/** Mines with their management fields and Agent Keys (masters and administrators). */
export const useMineList = () =>
  useQuery({
    queryKey: areaKeys.manage(),
    queryFn: () => call('mineList', {}, { silent: true }),
    retry: false,
  });

export const useEditMine = () => {
  const invalidate = useInvalidateMines();
  return useMutation({
    mutationFn: (body: EndpointBody<'areaEdit'>) => call('areaEdit', body, form),
    onSuccess: invalidate,
  });
};

/** What deleting a mine takes with it (asked right before the confirmation). */
export const fetchDeletePreview = (id: number) => call('mineDeletePreview', { id });

export const useDeleteMine = () => {
  const invalidate = useInvalidateMines();
  return useMutation({
    mutationFn: (id: number) => call('areaDelete', { id }, { successToast: true }),
    onSuccess: invalidate,
  });
};

export const useRegenerateAgentKey = () => {
  const invalidate = useInvalidateMines();
  return useMutation({
    mutationFn: (id: number) => call('mineRegenerateAgentKey', { id }, { successToast: true }),
    onSuccess: invalidate,
  });
};

/** Client key records of a mine; refreshed while shown, since clients come and go. */
export const useClientRecords = (areaId: number | null) =>
  useQuery({
    queryKey: areaKeys.clients(areaId ?? 0),
    queryFn: () => call('mineClientList', { area_id: areaId ?? 0 }, { silent: true }),
    enabled: areaId !== null,
    refetchInterval: 10_000,
  });

export const useRevokeClient = (areaId: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('mineClientRevoke', { area_id: areaId, id }, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: areaKeys.clients(areaId) }),
  });
};
