import type { RouteGroup } from '../../lib/route-types';

/** Miner log export (spec §2). Planned: a later issue adds the page. */
export const logsGroup: RouteGroup = {
  key: 'logs',
  meta: { titleKey: 'app.route.logs', icon: 'logs' },
  routes: [{ path: '/logs/minerLogs', layout: 'main', meta: { titleKey: 'app.route.minerLogs' } }],
};
