import type { RouteDescriptor } from '../../lib/route-types';

export const homeRoute: RouteDescriptor = {
  path: '/index',
  layout: 'main',
  page: () => import('./HomePage').then((m) => m.HomePage),
  meta: { titleKey: 'app.route.home', icon: 'home', affix: true, noCache: true },
};
