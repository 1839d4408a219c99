import type { RouteDescriptor } from '../../lib/route-types';

export const errorRoutes: RouteDescriptor[] = [
  {
    path: '/error/404',
    layout: 'bare',
    page: () => import('./NotFoundPage').then((m) => m.NotFoundPage),
    meta: { titleKey: 'app.route.notFound', hidden: true },
  },
  {
    path: '/401',
    layout: 'bare',
    page: () => import('./UnauthorizedPage').then((m) => m.UnauthorizedPage),
    meta: { titleKey: 'app.route.unauthorized', hidden: true },
  },
];
