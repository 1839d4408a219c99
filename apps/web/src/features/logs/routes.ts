import type { RouteGroup } from '../../lib/route-types';

/** Logs (spec §2): miner log export (planned: a later issue adds the page) and the operation log. */
export const logsGroup: RouteGroup = {
  key: 'logs',
  meta: { titleKey: 'app.route.logs', icon: 'logs' },
  routes: [
    { path: '/logs/minerLogs', layout: 'main', meta: { titleKey: 'app.route.minerLogs' } },
    {
      path: '/logs/operationLog',
      layout: 'main',
      page: () => import('../oplog/OperationLogPage').then((m) => m.OperationLogPage),
      meta: { titleKey: 'oplog.route.title' },
    },
  ],
};
