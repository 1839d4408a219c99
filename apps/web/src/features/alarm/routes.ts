import type { RouteGroup } from '../../lib/route-types';

/** FBOX alerts (spec §2). Planned: the alarm issue adds their pages. */
export const alarmGroup: RouteGroup = {
  key: 'alarm',
  meta: { titleKey: 'app.route.alarm', icon: 'alarm' },
  defaultOpen: true,
  routes: [
    { path: '/alarm/currentAlarm', layout: 'main', meta: { titleKey: 'app.route.currentAlarm' } },
    { path: '/alarm/historyAlarm', layout: 'main', meta: { titleKey: 'app.route.historyAlarm' } },
  ],
};
