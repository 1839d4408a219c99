import type { RouteGroup } from '../../lib/route-types';

/** Device screens (spec §2): lists in the menu, details hidden and lighting their list. */
export const deviceGroup: RouteGroup = {
  key: 'device',
  meta: { titleKey: 'app.route.device', icon: 'device' },
  defaultOpen: true,
  routes: [
    {
      path: '/device/boxList',
      layout: 'main',
      page: () => import('./BoxListPage').then((m) => m.BoxListPage),
      meta: { titleKey: 'app.route.boxList', icon: 'fbox' },
    },
    {
      path: '/device/boxDetail',
      layout: 'main',
      page: () => import('./BoxDetailPage').then((m) => m.BoxDetailPage),
      meta: { titleKey: 'app.route.boxDetail', hidden: true, activeMenu: '/device/boxList' },
    },
    {
      path: '/device/boxDetailHydro',
      layout: 'main',
      page: () => import('./BoxDetailPage').then((m) => m.BoxDetailHydroPage),
      meta: { titleKey: 'app.route.boxDetailHydro', hidden: true, activeMenu: '/device/boxList' },
    },
    {
      path: '/device/deviceList',
      layout: 'main',
      page: () => import('./TankListPage').then((m) => m.TankListPage),
      meta: { titleKey: 'app.route.deviceList', icon: 'tank' },
    },
    {
      path: '/device/deviceDetail',
      layout: 'main',
      page: () => import('./TankDetailPage').then((m) => m.TankDetailPage),
      meta: { titleKey: 'app.route.deviceDetail', hidden: true, activeMenu: '/device/deviceList' },
    },
    {
      path: '/device/machineList',
      layout: 'main',
      page: () => import('./MinerListPage').then((m) => m.MinerListPage),
      prefetch: () => import('./MinerListPage').then((m) => m.prefetchMinerList),
      meta: { titleKey: 'app.route.machineList', icon: 'miner' },
    },
    {
      path: '/device/machineDetail',
      layout: 'main',
      page: () => import('./MinerDetailPage').then((m) => m.MinerDetailPage),
      meta: { titleKey: 'app.route.machineDetail', hidden: true, activeMenu: '/device/machineList' },
    },
    // ── sub-accounts ──
    // ── end sub-accounts ──

    // ── mines and pools ──
    // ── end mines and pools ──

    // ── fbox config and account switches ──
    {
      path: '/device/fboxConfig',
      layout: 'main',
      page: () => import('../fbox-config/FboxConfigPage').then((m) => m.FboxConfigPage),
      meta: { titleKey: 'app.route.fboxConfig', hidden: true, activeMenu: '/device/boxList' },
    },
    // ── end fbox config and account switches ──

    // ── operation log ──
    // ── end operation log ──

    // ── tasks ──
    // ── end tasks ──
  ],
};
