import type { RouteGroup } from '../../lib/route-types';

/** Statistics (spec §2). Planned: a later issue adds the page. */
export const statisticGroup: RouteGroup = {
  key: 'statistic',
  meta: { titleKey: 'app.route.statistic', icon: 'statistic' },
  routes: [
    { path: '/statistic/powerStatistic', layout: 'main', meta: { titleKey: 'app.route.powerStatistic' } },
  ],
};
