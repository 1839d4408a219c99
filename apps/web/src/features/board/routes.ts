import type { RouteDescriptor, RouteGroup } from '../../lib/route-types';

/** Boards (spec §2). Planned: a later issue adds the pages. */
export const boardGroup: RouteGroup = {
  key: 'board',
  meta: { titleKey: 'app.route.board', icon: 'board' },
  routes: [{ path: '/board/boardList', layout: 'main', meta: { titleKey: 'app.route.boardList' } }],
};

/** Full-screen boards outside the layout (hidden pages of spec §2). Planned. */
export const boardScreens: RouteDescriptor[] = [
  { path: '/minerBigScreen', layout: 'bare', meta: { titleKey: 'app.route.minerBigScreen', hidden: true } },
  { path: '/minerBoard', layout: 'bare', meta: { titleKey: 'app.route.minerBoard', hidden: true } },
  { path: '/minerBoardTest', layout: 'bare', meta: { titleKey: 'app.route.minerBoardTest', hidden: true } },
  { path: '/tankBoard', layout: 'bare', meta: { titleKey: 'app.route.tankBoard', hidden: true } },
  { path: '/dataBoard', layout: 'bare', meta: { titleKey: 'app.route.dataBoard', hidden: true } },
  { path: '/dataBoardNew', layout: 'bare', meta: { titleKey: 'app.route.dataBoardNew', hidden: true } },
];
