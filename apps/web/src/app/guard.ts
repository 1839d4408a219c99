import { loginPath } from '../lib/navigation';
import { canAccess, findRoute, isAvailable } from './routes';

export type GuardDecision = { kind: 'redirect'; to: string } | { kind: 'allow'; needsSession: boolean };

/**
 * The access rules of spec §2, as vue-element-admin's permission.js applies them: open pages for
 * visitors, /login for everyone else (remembering path and query), / → /index, unknown or planned
 * pages → /error/404, missing role → /401. `roles` are the user's route roles (`admin` for a master,
 * the authority for a sub-account); `null` while unknown (before the user info is read), when the
 * session loader makes the role check once it knows them.
 */
export const decideAccess = (
  pathname: string,
  search: string,
  hasToken: boolean,
  roles: readonly string[] | null = null,
): GuardDecision => {
  const route = findRoute(pathname);
  if (route?.open) {
    if (hasToken && pathname === '/login') return { kind: 'redirect', to: '/' };
    return { kind: 'allow', needsSession: false };
  }
  // A wall TV's board by its kiosk link: no session; the server checks the token on every read.
  if (route?.kiosk && isAvailable(route) && new URLSearchParams(search).has('kiosk'))
    return { kind: 'allow', needsSession: false };
  if (!hasToken) return { kind: 'redirect', to: loginPath(`${pathname}${search}`) };
  if (pathname === '' || pathname === '/') return { kind: 'redirect', to: `/index${search}` };
  if (!route || !isAvailable(route)) return { kind: 'redirect', to: '/error/404' };
  if (roles !== null && !canAccess(route, roles)) return { kind: 'redirect', to: '/401' };
  return { kind: 'allow', needsSession: route.layout === 'main' };
};
