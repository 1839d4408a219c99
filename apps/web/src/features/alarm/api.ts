import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../lib/api';
import { areaScope } from '../../lib/area-scope';
import { type ListQuery, toRequestParams } from '../../lib/list-query';
import { fallbackRefetchInterval } from '../../lib/live-socket';

const quiet = { silent: true } as const;

/** Query keys of the alert lists; a live `alert` message makes them stale. */
export const alarmKeys = {
  all: ['alarm'] as const,
  list: (kind: AlertListKind, params: object) => [...alarmKeys.all, kind, params] as const,
};

/** Open alerts (realtime) or closed ones (history). */
export type AlertListKind = 'current' | 'history';

/** A page of alerts of the selected mine for the filters in the URL. */
export const useAlertList = (kind: AlertListKind, query: ListQuery) => {
  const params = toRequestParams(query);
  return useQuery({
    queryKey: alarmKeys.list(kind, params),
    queryFn: () =>
      call(kind === 'current' ? 'alarmCurrent' : 'alarmHistory', { ...areaScope(), ...params }, quiet),
    placeholderData: keepPreviousData,
    refetchInterval: fallbackRefetchInterval,
  });
};

/** Acknowledges an alert with an optional note; the lists refresh. */
export const useAckAlert = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, note }: { id: number; note?: string }) =>
      call(
        'alarmAck',
        { ...areaScope(), id, ...(note ? { note } : {}) },
        { successToast: true, quietValidation: true },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmKeys.all }),
  });
};
