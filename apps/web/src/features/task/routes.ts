import type { RouteGroup } from '../../lib/route-types';

/** Miner groups and tasks (spec §2). Planned: the task issue adds their pages. */
export const taskGroup: RouteGroup = {
  key: 'task',
  meta: { titleKey: 'app.route.task', icon: 'task' },
  defaultOpen: true,
  routes: [
    { path: '/task/groups', layout: 'main', meta: { titleKey: 'app.route.groups' } },
    {
      path: '/task/groupEdit',
      layout: 'main',
      meta: { titleKey: 'app.route.groupEdit', hidden: true, activeMenu: '/task/groups' },
    },
    { path: '/task/modeTask', layout: 'main', meta: { titleKey: 'app.route.modeTask' } },
    { path: '/task/rebootTask', layout: 'main', meta: { titleKey: 'app.route.rebootTask' } },
  ],
};
