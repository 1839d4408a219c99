import { QueryClientProvider } from '@tanstack/react-query';
import message from 'antd/es/message';
import Spin from 'antd/es/spin';
import { useEffect } from 'react';
import { type LoaderFunctionArgs, Navigate, redirect, useLocation } from 'react-router';
import { userInfoQuery, useUserInfo } from '../features/auth';
import { unreadCountQuery } from '../features/messages';
import { areaListQuery, useAreaList, useSelectedArea } from '../features/mines';
import { AppLayout } from '../layout/AppLayout';
import { ruleListQuery } from '../lib/access';
import { setMessageApi } from '../lib/feedback';
import { loginPath } from '../lib/navigation';
import { clearSession, getToken, grantRoles, rolesStore } from '../lib/session';
import { decideAccess } from './guard';
import { useLiveArea } from './live-updates';
import { queryClient } from './query-client';

/**
 * Runs before any page under the layout shows (so the URL changes once the page can render): the
 * access rules first, then user info and mines, once per session (cached). If they cannot be read
 * the session ends and the user goes to /login with the wanted page (spec §2); the API client has
 * shown the error already.
 */
export const sessionLoader = async ({ request }: LoaderFunctionArgs) => {
  const url = new URL(request.url);
  const hasToken = getToken() !== undefined;
  const decision = decideAccess(url.pathname, url.search, hasToken, rolesStore.get());
  if (decision.kind === 'redirect') throw redirect(decision.to);
  let roles: readonly string[];
  try {
    const [info] = await Promise.all([
      queryClient.ensureQueryData(userInfoQuery()),
      queryClient.ensureQueryData(areaListQuery()),
      queryClient.ensureQueryData(ruleListQuery()),
    ]);
    roles = info.roles;
  } catch {
    clearSession();
    throw redirect(loginPath(`${url.pathname}${url.search}`));
  }
  // Masters get `admin` (spec §6), sub-accounts their authority: pages limited to masters refuse them.
  grantRoles(roles);
  const withRoles = decideAccess(url.pathname, url.search, hasToken, roles);
  if (withRoles.kind === 'redirect') throw redirect(withRoles.to);
  void queryClient.prefetchQuery(unreadCountQuery());
  return null;
};

/** Hands antd's context-aware message API (theme, locale) to the API client while signed in. */
const useFeedbackBridge = () => {
  const [messageApi, holder] = message.useMessage();
  useEffect(() => {
    setMessageApi(messageApi);
    return () => setMessageApi(null);
  }, [messageApi]);
  return holder;
};

/** Safety net behind the loader: waits for the session data, or leaves when it cannot be had. */
const SessionGate = () => {
  const { pathname, search } = useLocation();
  const user = useUserInfo();
  const areas = useAreaList();
  const area = useSelectedArea();
  useLiveArea(area?.id, queryClient);
  const lost = (!user.data && user.isError) || (!areas.data && areas.isError);
  useEffect(() => {
    if (lost) clearSession();
  }, [lost]);
  if (lost) return <Navigate to={loginPath(`${pathname}${search}`)} replace />;
  if (!user.data || !areas.data) return <Spin fullscreen />;
  return <AppLayout />;
};

/** Everything behind sign-in: query cache, toasts, session, then the layout. */
export const ProtectedShell = () => {
  const feedbackHolder = useFeedbackBridge();
  return (
    <QueryClientProvider client={queryClient}>
      {feedbackHolder}
      <SessionGate />
    </QueryClientProvider>
  );
};
