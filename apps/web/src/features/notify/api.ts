import type { PushChannel } from '@fbox/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { call } from '../../lib/api';

const quiet = { silent: true } as const;

/** Query keys of alert push. */
export const notifyKeys = {
  all: ['notify'] as const,
  channels: () => [...notifyKeys.all, 'channels'] as const,
  alert: (areaId: number, alertId: number) => [...notifyKeys.all, 'alert', areaId, alertId] as const,
};

/** Which push channels the server is configured for. */
export const useNotifyChannels = () =>
  useQuery({
    queryKey: notifyKeys.channels(),
    queryFn: () => call('notifyChannels', {}, quiet),
    staleTime: 60_000,
  });

/** Sends a test notification to the caller's saved addresses of a channel; answers each outcome. */
export const useNotifyTest = () =>
  useMutation({
    mutationFn: (channel: PushChannel) => call('notifyTest', { channel }, { quietValidation: true }),
  });

/** Records the console's language as the language of the caller's notifications. */
export const recordNotifyLanguage = () => call('notifyLanguage', {}, quiet);

/** The notifications of an alert of a mine. */
export const useAlertNotifications = (areaId: number, alertId: number) =>
  useQuery({
    queryKey: notifyKeys.alert(areaId, alertId),
    queryFn: () => call('notifyAlert', { area_id: areaId, id: alertId }, quiet),
  });
