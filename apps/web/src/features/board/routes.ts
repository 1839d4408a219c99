import type { RouteDescriptor, RouteGroup } from '../../lib/route-types';

/** Boards (spec §2): the wall displays of the selected mine. */
export const boardGroup: RouteGroup = {
  key: 'board',
  meta: { titleKey: 'app.route.board', icon: 'board' },
  routes: [
    {
      path: '/board/boardList',
      layout: 'main',
      page: () => import('./BoardListPage').then((m) => m.BoardListPage),
      meta: { titleKey: 'app.route.boardList' },
    },
  ],
};

/**
 * Full-screen boards outside the layout (hidden pages of spec §2), one per board type
 * (`builtBoardTypes` in the contracts lists the ones that can be made).
 */
export const boardScreens: RouteDescriptor[] = [
  {
    path: '/minerBigScreen',
    layout: 'bare',
    kiosk: true,
    page: () => import('./MinerBoardPage').then((m) => m.MinerBigScreenPage),
    meta: { titleKey: 'app.route.minerBigScreen', hidden: true },
  },
  {
    path: '/minerBoard',
    layout: 'bare',
    kiosk: true,
    page: () => import('./MinerBoardPage').then((m) => m.MinerBoardPage),
    meta: { titleKey: 'app.route.minerBoard', hidden: true },
  },
  {
    path: '/minerBoardTest',
    layout: 'bare',
    kiosk: true,
    page: () => import('./TestBoardPage').then((m) => m.TestBoardPage),
    meta: { titleKey: 'app.route.minerBoardTest', hidden: true },
  },
  {
    path: '/tankBoard',
    layout: 'bare',
    kiosk: true,
    page: () => import('./TankBoardPage').then((m) => m.TankBoardPage),
    meta: { titleKey: 'app.route.tankBoard', hidden: true },
  },
  {
    path: '/dataBoard',
    layout: 'bare',
    kiosk: true,
    page: () => import('./DataBoardPage').then((m) => m.DataBoardPage),
    meta: { titleKey: 'app.route.dataBoard', hidden: true },
  },
  {
    path: '/dataBoardNew',
    layout: 'bare',
    kiosk: true,
    page: () => import('./DataBoardNewPage').then((m) => m.DataBoardNewPage),
    meta: { titleKey: 'app.route.dataBoardNew', hidden: true },
  },
];
