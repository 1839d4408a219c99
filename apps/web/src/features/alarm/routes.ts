import type { RouteGroup } from '../../lib/route-types';

/** FBOX alerts (spec §2): open alerts, updating live, their history, and the rules that raise them. */
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
    // The rule screens (catalogue: Tank and Machine Alert Rules; FBOX rules beside them).
    {
      path: '/alarm/fboxRules',
      layout: 'main',
      page: () => import('./AlertRulesPage').then((m) => m.FboxAlertRulesPage),
      meta: { titleKey: 'app.route.fboxRules' },
    },
    {
      path: '/alarm/tankRules',
      layout: 'main',
      page: () => import('./AlertRulesPage').then((m) => m.TankAlertRulesPage),
      meta: { titleKey: 'app.route.tankRules' },
    },
    {
      path: '/alarm/machineRules',
      layout: 'main',
      page: () => import('./AlertRulesPage').then((m) => m.MachineAlertRulesPage),
      meta: { titleKey: 'app.route.machineRules' },
    },
  ],
};
