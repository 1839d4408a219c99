import type { RouteGroup } from '../../lib/route-types';

/** Logs (spec §2): miner log export (exports of miners' own logs as zips) and the operation log. */
export const logsGroup: RouteGroup = {
  key: 'logs',
  meta: { titleKey: 'app.route.logs', icon: 'logs' },
  routes: [
    {
      path: '/logs/minerLogs',
      layout: 'main',
      page: () => import('./MinerLogsPage').then((m) => m.MinerLogsPage),
      meta: { titleKey: 'app.route.minerLogs' },
    },
    {
      path: '/logs/operationLog',
      layout: 'main',
      page: () => import('../oplog/OperationLogPage').then((m) => m.OperationLogPage),
      meta: { titleKey: 'oplog.route.title' },
    },
  ],
};
