import type { RouteGroup } from '../../lib/route-types';

/** Statistics (spec §2): power usage per mine, FBOX and meter, with its cost (issue 14). */
export const statisticGroup: RouteGroup = {
  key: 'statistic',
  meta: { titleKey: 'app.route.statistic', icon: 'statistic' },
  routes: [
    {
      path: '/statistic/powerStatistic',
      layout: 'main',
      page: () => import('./PowerStatisticPage').then((m) => m.PowerStatisticPage),
      meta: { titleKey: 'app.route.powerStatistic' },
    },
    {
      path: '/statistic/hashrateOverview',
      layout: 'main',
      page: () => import('./HashrateOverviewPage').then((m) => m.HashrateOverviewPage),
      meta: { titleKey: 'app.route.hashrateOverview' },
    },
    {
      path: '/statistic/revenue',
      layout: 'main',
      page: () => import('./RevenuePage').then((m) => m.RevenuePage),
      meta: { titleKey: 'app.route.revenue' },
    },
  ],
};
