import type { RouteDescriptor } from '../../lib/route-types';

export const authRoutes: RouteDescriptor[] = [
  {
    path: '/login',
    layout: 'bare',
    open: true,
    page: () => import('./LoginPage').then((m) => m.LoginPage),
    meta: { titleKey: 'app.route.login', hidden: true },
  },
  {
    path: '/auth-redirect',
    layout: 'bare',
    open: true,
    page: () => import('./AuthRedirectPage').then((m) => m.AuthRedirectPage),
    meta: { titleKey: 'app.route.authRedirect', hidden: true },
  },
];
