import { matchPath } from 'react-router';
import { alarmGroup } from '../features/alarm/routes';
import { authRoutes } from '../features/auth/routes';
import { boardGroup, boardScreens } from '../features/board/routes';
import { deviceGroup } from '../features/device/routes';
import { errorRoutes } from '../features/errors/routes';
import { homeRoute } from '../features/home/routes';
import { logsGroup } from '../features/logs/routes';
import { messagesRoute } from '../features/messages/routes';
import { redirectRoute } from '../features/redirect/routes';
import { setGroup } from '../features/set/routes';
import { statisticGroup } from '../features/statistic/routes';
import { taskGroup } from '../features/task/routes';
import { isAvailable, type RouteDescriptor, type RouteGroup } from '../lib/route-types';

/** The sidebar's tree, in menu order: single pages and groups. */
export const menuTree: (RouteDescriptor | RouteGroup)[] = [
  homeRoute,
  deviceGroup,
  taskGroup,
  alarmGroup,
  setGroup,
  statisticGroup,
  logsGroup,
  boardGroup,
  redirectRoute,
];

export const isGroup = (node: RouteDescriptor | RouteGroup): node is RouteGroup => 'routes' in node;

/** Every route of spec §2, available or planned. */
export const routeTable: RouteDescriptor[] = [
  ...authRoutes,
  ...errorRoutes,
  ...boardScreens,
  // Catalogue screens without a route of spec §2, reached from the layout (the badge).
  messagesRoute,
  ...menuTree.flatMap((node) => (isGroup(node) ? node.routes : [node])),
];

/** The descriptor a location belongs to, if any. */
export const findRoute = (pathname: string): RouteDescriptor | undefined =>
  routeTable.find((route) => matchPath({ path: route.path, end: true }, pathname) !== null);

/** The group a route sits in, for the breadcrumb. */
export const findGroup = (route: RouteDescriptor): RouteGroup | undefined =>
  menuTree.find((node): node is RouteGroup => isGroup(node) && node.routes.includes(route));

/** Routes a user with these roles may see (spec §6: no role list, or one of the user's roles in it). */
export const canAccess = (route: RouteDescriptor, roles: readonly string[]): boolean =>
  !route.meta.roles || route.meta.roles.some((role) => roles.includes(role));

export { isAvailable };
