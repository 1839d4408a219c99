import type { AlertTarget, EndpointBody } from '@fbox/contracts';
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
  openCount: (areaId: number) => [...alarmKeys.all, 'openCount', areaId] as const,
  rules: (areaId: number, target: AlertTarget) => [...alarmKeys.all, 'rules', areaId, target] as const,
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

/** Silences an alert's rule on its device for `minutes` (0 lifts it); the lists refresh. */
export const useSilenceAlert = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, minutes, note }: { id: number; minutes: number; note?: string }) =>
      call(
        'alarmSilence',
        { ...areaScope(), id, minutes, ...(note ? { note } : {}) },
        { successToast: true, quietValidation: true },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmKeys.all }),
  });
};

/** The alert rules of the selected mine for one target (FBOX, tank or miner). */
export const useAlertRules = (target: AlertTarget) => {
  const scope = areaScope();
  return useQuery({
    queryKey: alarmKeys.rules(scope.area_id, target),
    queryFn: () => call('alertRuleList', { ...scope, target }, quiet),
  });
};

/** Adds a rule or changes one (with `id`); the rules and alert lists refresh. */
export const useSaveAlertRule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Omit<EndpointBody<'alertRuleSave'>, 'area_id'>) =>
      call('alertRuleSave', { ...areaScope(), ...body }, { successToast: true, quietValidation: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmKeys.all }),
  });
};

/** Deletes a rule; its open alerts close. */
export const useDeleteAlertRule = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => call('alertRuleDelete', { ...areaScope(), id }, { successToast: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: alarmKeys.all }),
  });
};

/** How many alerts of the selected mine are open (the top bar's alert badge), live. */
export const useOpenAlertCount = () => {
  const scope = areaScope();
  return useQuery({
    queryKey: alarmKeys.openCount(scope.area_id),
    queryFn: () => call('alarmCurrent', { ...scope, page: 1, limit: 1 }, quiet),
    select: (page) => page.total,
    enabled: scope.area_id > 0,
    refetchInterval: fallbackRefetchInterval,
  });
};
