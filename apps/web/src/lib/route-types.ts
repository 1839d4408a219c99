import type { ComponentType } from 'react';
import type { en } from '../locales/en';

export type MessageKey = keyof typeof en;

export type MenuIconName =
  | 'home'
  | 'device'
  | 'task'
  | 'alarm'
  | 'set'
  | 'statistic'
  | 'logs'
  | 'board'
  | 'fbox'
  | 'tank'
  | 'miner';

/** Route meta as vue-element-admin describes it; sidebar, breadcrumb, tags and title read it. */
export interface RouteMeta {
  titleKey: MessageKey;
  /** Menu icon by name (layout/menu-icons maps names to icons, keeping them out of the entry chunk). */
  icon?: MenuIconName;
  /** Not in the sidebar. */
  hidden?: boolean;
  /** Tag that cannot be closed. */
  affix?: boolean;
  /** Menu entry to highlight for a hidden page (a detail page lights its list). */
  activeMenu?: string;
  /** Only these roles may open it; none means everyone signed in. */
  roles?: string[];
  /** Remounted on every visit (not kept alive). */
  noCache?: boolean;
}

/**
 * One route. `page` loads the screen lazily; a route without `page` is planned but not built yet: it
 * stays out of the menu and opening it leads to /error/404.
 */
export interface RouteDescriptor {
  path: string;
  layout: 'main' | 'bare';
  /** Reachable without a token (spec §2: /login and /auth-redirect). */
  open?: boolean;
  /** Reachable without a token through a board's kiosk link (`?kiosk=<token>`): the page shows that board only. */
  kiosk?: boolean;
  page?: () => Promise<ComponentType>;
  /**
   * The page's first request, started alongside the session check (the layout's loader) instead of
   * after the layout and page have rendered. Only with a session; a page of the chosen mine waits
   * for the mine list when none is chosen yet (`chosenAreaId`).
   */
  prefetch?: () => Promise<PagePrefetch>;
  meta: RouteMeta;
}

/** Starts a page's first query for a URL; it must build the same key as the page will. It may reject (the loader ignores it). */
export type PagePrefetch = (url: URL) => Promise<void>;

/** A sidebar group (device, task, …) of routes under the main layout. */
export interface RouteGroup {
  key: string;
  meta: { titleKey: MessageKey; icon: MenuIconName };
  /** Expanded when the console opens (spec §2: device, task, alarm, set). */
  defaultOpen?: boolean;
  routes: RouteDescriptor[];
}

export const isAvailable = (route: RouteDescriptor): boolean => route.page !== undefined;
