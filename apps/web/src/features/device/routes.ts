import type { RouteGroup } from '../../lib/route-types';

/** Device screens (spec §2). Planned: the device issue adds their pages. */
export const deviceGroup: RouteGroup = {
  key: 'device',
  meta: { titleKey: 'app.route.device', icon: 'device' },
  defaultOpen: true,
  routes: [
    { path: '/device/boxList', layout: 'main', meta: { titleKey: 'app.route.boxList' } },
    {
      path: '/device/boxDetail',
      layout: 'main',
      meta: { titleKey: 'app.route.boxDetail', hidden: true, activeMenu: '/device/boxList' },
    },
    {
      path: '/device/boxDetailHydro',
      layout: 'main',
      meta: { titleKey: 'app.route.boxDetailHydro', hidden: true, activeMenu: '/device/boxList' },
    },
    { path: '/device/deviceList', layout: 'main', meta: { titleKey: 'app.route.deviceList' } },
    {
      path: '/device/deviceDetail',
      layout: 'main',
      meta: { titleKey: 'app.route.deviceDetail', hidden: true, activeMenu: '/device/deviceList' },
    },
    { path: '/device/machineList', layout: 'main', meta: { titleKey: 'app.route.machineList' } },
    {
      path: '/device/machineDetail',
      layout: 'main',
      meta: { titleKey: 'app.route.machineDetail', hidden: true, activeMenu: '/device/machineList' },
    },
  ],
};
