import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { getToken, rolesStore } from '../lib/session';
import { decideAccess } from './guard';
import { markOpened } from './opening';
import { findRoute } from './routes';

/** Document title from the route table: `<page> - FBOX Cloud System`. */
const useDocumentTitle = (pathname: string) => {
  const { t } = useTranslation();
  const route = findRoute(pathname);
  const title = route ? `${t(route.meta.titleKey)} - ${t('app.brand.title')}` : t('app.brand.title');
  useEffect(() => {
    document.title = title;
  }, [title]);
};

/**
 * Applies the access rules on every navigation. Pages under the layout then wait for the session
 * (user info, mines) in ProtectedShell.
 */
export const RootGuard = () => {
  const { pathname, search } = useLocation();
  useDocumentTitle(pathname);
  useEffect(markOpened, []);
  // Read, not subscribed: the session loader sets the roles while the old location still shows, and
  // re-deciding then (e.g. on /login with a fresh token) would redirect away from the wanted page.
  const decision = decideAccess(pathname, search, getToken() !== undefined, rolesStore.get());
  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  return <Outlet />;
};
