import type { ChangePasswordBody, SetUserInfoBody, TotpCodeBody, UserInfo } from '@fbox/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type CallOptions, call } from '../../lib/api';
import { rememberUserName } from '../../lib/session';
import { timeZoneStore } from '../../lib/time';

/** Query keys of the signed-in user. */
export const userKeys = {
  all: ['user'] as const,
  info: () => [...userKeys.all, 'info'] as const,
};

/** Reads the user info and remembers what other parts need locally (name, time zone). */
export const fetchUserInfo = async (): Promise<UserInfo> => {
  const info = await call('getUserInfo', {});
  rememberUserName(info.nickname || info.username);
  timeZoneStore.set(info.time_zone || null);
  return info;
};

export const userInfoQuery = () =>
  queryOptions({ queryKey: userKeys.info(), queryFn: fetchUserInfo, staleTime: 5 * 60_000 });

/** The signed-in user's info (spec §3); loaded by the session loader before any page shows. */
export const useUserInfo = () => useQuery(userInfoQuery());

/**
 * Writes profile fields, switches or the push form. The answer is the new user info, which replaces
 * the cached one; -2 answers stay on the form (`quietValidation`).
 */
export const useSetUserInfo = (options: CallOptions = { successToast: true, quietValidation: true }) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetUserInfoBody) => call('setUserInfo', body, options),
    onSuccess: (info) => {
      queryClient.setQueryData(userKeys.info(), info);
      timeZoneStore.set(info.time_zone || null);
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
};

export const useChangePassword = () =>
  useMutation({
    mutationFn: (body: ChangePasswordBody) => call('changePassword', body, { quietValidation: true }),
  });

export const useTotpSetup = () => useMutation({ mutationFn: () => call('totpSetup', {}) });

const useTotpChange = (name: 'totpEnable' | 'totpDisable') => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TotpCodeBody) => call(name, body, { successToast: true, quietValidation: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
};

export const useTotpEnable = () => useTotpChange('totpEnable');
export const useTotpDisable = () => useTotpChange('totpDisable');
