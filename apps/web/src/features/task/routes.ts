import type { RouteGroup } from '../../lib/route-types';

/** Miner groups and tasks (spec §2): groups, their editor (hidden), temperature and reboot tasks. */
export const taskGroup: RouteGroup = {
  key: 'task',
  meta: { titleKey: 'app.route.task', icon: 'task' },
  defaultOpen: true,
  routes: [
    {
      path: '/task/groups',
      layout: 'main',
      page: () => import('./GroupsPage').then((m) => m.GroupsPage),
      meta: { titleKey: 'app.route.groups' },
    },
    {
      path: '/task/groupEdit',
      layout: 'main',
      page: () => import('./GroupEditPage').then((m) => m.GroupEditPage),
      meta: { titleKey: 'app.route.groupEdit', hidden: true, activeMenu: '/task/groups' },
    },
    {
      path: '/task/modeTask',
      layout: 'main',
      page: () => import('./ModeTaskPage').then((m) => m.ModeTaskPage),
      meta: { titleKey: 'app.route.modeTask' },
    },
    {
      path: '/task/rebootTask',
      layout: 'main',
      page: () => import('./RebootTaskPage').then((m) => m.RebootTaskPage),
      meta: { titleKey: 'app.route.rebootTask' },
    },
  ],
};
