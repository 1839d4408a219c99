import type { ComponentType } from 'react';
import { createBrowserRouter, type LoaderFunctionArgs, Navigate, type RouteObject } from 'react-router';
import { loadConsoleTexts } from '../lib/i18n';
import { setNavigator } from '../lib/navigation';
import type { PagePrefetch, RouteDescriptor } from '../lib/route-types';
import { getToken } from '../lib/session';
import { isOpening } from './opening';
import { RootGuard } from './RootGuard';
import { routeTable } from './routes';

/** Pages shown before sign-in: their texts are loaded at start (locales/en-core.ts). */
const beforeSignIn = new Set(['/login']);

/** How long the first page waits for its first request before it renders without it. */
export const firstPageWaitMs = 400;

/**
 * A page's loader runs beside the layout's session check: with a session it starts the page's first
 * request (which waits for the mine list itself on a first visit, see `PagePrefetch`). The page the
 * console opens on waits for it up to `firstPageWaitMs`, so its first render shows the rows instead
 * of rendering again when they come (on a 100,000-miner mine that second render took 230 ms); later
 * navigations never wait (the page shows it loading, or its error, as on any visit). A refused
 * session is the session check's to handle.
 */
export const prefetchLoader =
  (prefetch: PagePrefetch) =>
  async ({ request }: LoaderFunctionArgs) => {
    if (getToken() === undefined) return null;
    const started = prefetch(new URL(request.url)).catch(() => {});
    if (isOpening())
      await Promise.race([started, new Promise((resolve) => setTimeout(resolve, firstPageWaitMs))]);
    return null;
  };

const toRouteObject = (route: RouteDescriptor): RouteObject => {
  const { page } = route;
  // Planned pages are in the table but not built: the guard sends them to 404 before this matters.
  if (!page) return { path: route.path, element: <Navigate to="/error/404" replace /> };
  if (beforeSignIn.has(route.path))
    return { path: route.path, lazy: async () => ({ Component: (await page()) as ComponentType }) };
  // Every other page fetches the pages' texts along with its code (once; later pages find them).
  return {
    path: route.path,
    lazy: async () => {
      const [Component, prefetch] = await Promise.all([page(), route.prefetch?.(), loadConsoleTexts()]);
      return { Component: Component as ComponentType, loader: prefetch && prefetchLoader(prefetch) };
    },
  };
};

const inLayout = routeTable.filter((route) => route.layout === 'main').map(toRouteObject);
const bare = (signIn: boolean) =>
  routeTable
    .filter((route) => route.layout === 'bare' && beforeSignIn.has(route.path) === signIn)
    .map(toRouteObject);

/** Routes built from the route table; every page and the layout itself load lazily. */
export const routes: RouteObject[] = [
  {
    element: <RootGuard />,
    // Shown while the first lazy page loads (plain CSS: antd is not loaded yet).
    HydrateFallback: () => <div className="page-loading" />,
    children: [
      { index: true, element: <Navigate to="/index" replace /> },
      ...bare(true),
      {
        // antd's locale and theme around every page that uses antd (the router loads this route
        // together with the page's own, so it adds no round trip).
        lazy: async () => ({ Component: (await import('./AntdProvider')).AntdOutlet }),
        children: [
          ...bare(false),
          {
            lazy: async () => {
              const [shell] = await Promise.all([import('./ProtectedShell'), loadConsoleTexts()]);
              return { Component: shell.ProtectedShell, loader: shell.sessionLoader };
            },
            children: inLayout,
          },
        ],
      },
      { path: '*', element: <Navigate to="/error/404" replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

setNavigator((to, options) => void router.navigate(to, options));
