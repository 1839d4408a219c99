import type { RouteGroup } from '../../lib/route-types';

/** Settings screens (spec §2). Planned: later issues add their pages. */
export const setGroup: RouteGroup = {
  key: 'set',
  meta: { titleKey: 'app.route.set', icon: 'set' },
  defaultOpen: true,
  routes: [
    { path: '/set/account', layout: 'main', meta: { titleKey: 'app.route.observerAccount' } },
    // Sub accounts never see it (spec §6); the role entry mirrors the original placeholder.
    { path: '/set/subAccount', layout: 'main', meta: { titleKey: 'app.route.subAccount', roles: ['admin'] } },
    // ── sub-accounts ──
    // ── end sub-accounts ──

    // ── mines and pools ──
    {
      path: '/set/mines',
      layout: 'main',
      page: () => import('../mines/ManageMinesPage').then((m) => m.ManageMinesPage),
      meta: { titleKey: 'app.route.manageMines' },
    },
    // ── end mines and pools ──

    // ── fbox config and account switches ──
    // ── end fbox config and account switches ──

    // ── operation log ──
    // ── end operation log ──

    // ── tasks ──
    // ── end tasks ──
  ],
};
