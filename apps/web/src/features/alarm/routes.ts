import type { RouteGroup } from '../../lib/route-types';

/** FBOX alerts (spec §2): open alerts, updating live, and their history. */
export const alarmGroup: RouteGroup = {
  key: 'alarm',
  meta: { titleKey: 'app.route.alarm', icon: 'alarm' },
  defaultOpen: true,
  routes: [
    {
      path: '/alarm/currentAlarm',
      layout: 'main',
      page: () => import('./AlarmListPage').then((m) => m.CurrentAlarmPage),
      meta: { titleKey: 'app.route.currentAlarm' },
    },
    {
      path: '/alarm/historyAlarm',
      layout: 'main',
      page: () => import('./AlarmListPage').then((m) => m.HistoryAlarmPage),
      meta: { titleKey: 'app.route.historyAlarm' },
    },
  ],
};
