import type { RouteDescriptor } from '../../lib/route-types';

/** Used by the tags view's refresh: leaving for /redirect/<path> and coming back remounts the page. */
export const redirectRoute: RouteDescriptor = {
  path: '/redirect/*',
  layout: 'main',
  page: () => import('./RedirectPage').then((m) => m.RedirectPage),
  meta: { titleKey: 'app.route.redirect', hidden: true },
};
