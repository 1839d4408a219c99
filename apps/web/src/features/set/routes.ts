import type { RouteGroup } from '../../lib/route-types';

/** Settings screens (spec §2). Planned: later issues add their pages. */
export const setGroup: RouteGroup = {
  key: 'set',
  meta: { titleKey: 'app.route.set', icon: 'set' },
  defaultOpen: true,
  routes: [
    {
      path: '/set/account',
      layout: 'main',
      page: () => import('./ObserverAccountPage').then((m) => m.ObserverAccountPage),
      meta: { titleKey: 'app.route.observerAccount' },
    },
    // Sub accounts never see it (spec §6): only masters hold the `admin` role.
    {
      path: '/set/subAccount',
      layout: 'main',
      page: () => import('./SubAccountPage').then((m) => m.SubAccountPage),
      meta: { titleKey: 'app.route.subAccount', roles: ['admin'] },
    },
    // ── sub-accounts ──
    // ── end sub-accounts ──

    // ── mines and pools ──
    {
      path: '/set/poolSubaccount',
      layout: 'main',
      page: () => import('./PoolSubaccountPage').then((m) => m.PoolSubaccountPage),
      meta: { titleKey: 'app.route.poolSubaccount' },
    },
    // Masters and administrators manage mines; operators never see the Agent Key.
    {
      path: '/set/mines',
      layout: 'main',
      page: () => import('../mines/ManageMinesPage').then((m) => m.ManageMinesPage),
      meta: { titleKey: 'app.route.manageMines', roles: ['admin', 'administrator'] },
    },
    // ── end mines and pools ──

    // ── fbox config and account switches ──
    {
      path: '/set/fboxDefaults',
      layout: 'main',
      page: () => import('../fbox-config/FboxDefaultsPage').then((m) => m.FboxDefaultsPage),
      meta: { titleKey: 'app.route.fboxDefaults' },
    },
    // ── end fbox config and account switches ──

    // ── operation log ──
    // ── end operation log ──

    // ── tasks ──
    // ── end tasks ──
  ],
};
