import {
  type EndpointBody,
  type GroupType,
  groupTypes,
  type MinerLogExport,
  type MinerLogItemState,
} from '@fbox/contracts';
import { keepPreviousData, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { call, download } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { i18n } from '../../lib/i18n';
import { minerKeys, tankKeys } from '../device';

const quiet = { silent: true } as const;

/** While an export on screen is processing, its list and its miners are read again this often. */
export const EXPORT_POLL_MS = 2_000;

/** Query keys of the miner log exports. */
export const minerLogKeys = {
  all: ['minerLogs'] as const,
  lists: () => [...minerLogKeys.all, 'list'] as const,
  list: (params: object) => [...minerLogKeys.lists(), params] as const,
  items: (params: object) => [...minerLogKeys.all, 'items', params] as const,
  groups: (type: GroupType) => [...minerLogKeys.all, 'groups', type] as const,
};

export interface Paging {
  page: number;
  limit: number;
}

const anyProcessing = (items: readonly MinerLogExport[] | undefined) =>
  (items ?? []).some((e) => e.status === 'processing');

/** A page of the mine's exports, newest first; read every 2 s while one of them is processing. */
export const useMinerLogExports = (paging: Paging) =>
  useQuery({
    queryKey: minerLogKeys.list(paging),
    queryFn: () => call('minerLogExportList', { ...areaScope(), ...paging }, quiet),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anyProcessing(query.state.data?.items) ? EXPORT_POLL_MS : false),
  });

/** One export's miners (optionally in one state); read every 2 s while `live` (the export processes). */
export const useMinerLogItems = (
  id: number | null,
  params: Paging & { state?: MinerLogItemState },
  live: boolean,
) =>
  useQuery({
    queryKey: minerLogKeys.items({ id, ...params }),
    queryFn: () => call('minerLogExportItems', { ...areaScope(), id: id ?? 0, ...params }, quiet),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    refetchInterval: live ? EXPORT_POLL_MS : false,
  });

export type NewExport = Omit<EndpointBody<'minerLogExport'>, 'area_id'>;

/**
 * Starts an export. Field errors come back on the form (`quietValidation`); the list is read
 * again, so the new export shows at the top with its progress.
 */
export const useStartExport = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewExport) =>
      call(
        'minerLogExport',
        { ...areaScope(), ...body },
        { quietValidation: true, successToast: i18n.t('api.logExportStarted') },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: minerLogKeys.all }),
  });
};

/** Cancels a processing export, or deletes one (a processing one is canceled by the delete). */
export const useExportAction = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'cancel' | 'delete' }) =>
      call(
        action === 'cancel' ? 'minerLogExportCancel' : 'minerLogExportDelete',
        { ...areaScope(), id },
        {
          successToast: true,
        },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: minerLogKeys.all }),
  });
};

/** Downloads the zip of a finished or canceled export (a failure is shown as a toast). */
export const downloadExport = (id: number) =>
  download('minerLogExportDownload', { ...areaScope(), id }, `miner-logs-${id}.zip`).catch(() => undefined);

/* The form's choices: the device feature's calls under its query keys (one cache with its pages). */

/** The server's largest page: the picker offers every tank of the mine (grouped by FBOX). */
const ALL = { page: 1, limit: 500 } as const;

/** Every tank of the mine with its FBOX's name. */
export const useTankChoices = (enabled: boolean) =>
  useQuery({
    queryKey: tankKeys.list(ALL),
    queryFn: () => call('tankList', { ...areaScope(), ...ALL }, quiet),
    enabled,
    staleTime: 60_000,
  });

/** Every miner group of the mine, of every type. */
export const useGroupChoices = (enabled: boolean) =>
  useQueries({
    queries: groupTypes.map((type) => ({
      queryKey: minerLogKeys.groups(type),
      queryFn: () => call('minerGroupList', { ...areaScope(), type, ...ALL }, quiet),
      enabled,
      staleTime: 30_000,
    })),
  });

/** Miners whose SN, worker or IP holds `keyword` (the first 50), for the miner picker. */
export const useMinerSearch = (keyword: string, enabled: boolean) => {
  const params = { page: 1, limit: 50, ...(keyword ? { keyword } : {}) };
  return useQuery({
    queryKey: minerKeys.list(params),
    queryFn: () => call('minerList', { ...areaScope(), ...params }, quiet),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
};

/** How many miners match a miner-list filter (its first page of one). */
export const useMatchingCount = (filter: Record<string, string | number>, enabled: boolean) => {
  const params = { ...filter, page: 1, limit: 1 };
  return useQuery({
    queryKey: minerKeys.list(params),
    queryFn: () => call('minerList', { ...areaScope(), ...params }, quiet),
    enabled,
    placeholderData: keepPreviousData,
    select: (page) => page.total,
    staleTime: 10_000,
  });
};

/** Models and brands of the mine's miners, for the filter. */
export const useMinerFilterChoices = (enabled: boolean) =>
  useQuery({
    queryKey: minerKeys.filterOptions(),
    queryFn: () => call('minerFilterOptions', areaScope(), quiet),
    enabled,
    staleTime: 60_000,
  });

/** Tanks of one FBOX, for the filter's tank choice. */
export const useFboxTanks = (fboxId: number | undefined) =>
  useQuery({
    queryKey: tankKeys.options(fboxId ?? 0),
    queryFn: () => call('tankOptions', { ...areaScope(), fbox_id: fboxId ?? 0 }, quiet),
    enabled: (fboxId ?? 0) > 0,
    staleTime: 60_000,
  });
