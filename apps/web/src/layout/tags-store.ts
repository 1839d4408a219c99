import type { MessageKey } from '../lib/route-types';
import { onSessionCleared } from '../lib/session';
import { createStore } from '../lib/store';

/** A visited page in the tags view (vue-element-admin's tagsView). */
export interface TagView {
  /** Path without query: one tag per page. */
  path: string;
  /** Path with query: where clicking the tag goes. */
  fullPath: string;
  titleKey: MessageKey;
  /** Affixed tags (Home) cannot be closed. */
  affix: boolean;
}

export const tagsStore = createStore<TagView[]>([]);

/**
 * Adds a visited page, or updates its query if it is already there. Affixed tags stay in front.
 * `replacing` is the page a redirect left (a REPLACE navigation): its tag gives way to the new one.
 */
export const addView = (view: TagView, replacing?: string): void =>
  tagsStore.set((current) => {
    const views =
      replacing && replacing !== view.path ? current.filter((v) => v.affix || v.path !== replacing) : current;
    const existing = views.find((v) => v.path === view.path);
    if (existing) {
      return existing.fullPath === view.fullPath
        ? views
        : views.map((v) => (v.path === view.path ? { ...v, fullPath: view.fullPath } : v));
    }
    if (view.affix) return [view, ...views];
    const at = current.findIndex((v) => v.path === replacing);
    return at >= 0 && views.length < current.length
      ? [...views.slice(0, at), view, ...views.slice(at)]
      : [...views, view];
  });

/** Removes one tag unless it is affixed. */
export const closeView = (path: string): TagView[] => {
  tagsStore.set((views) => views.filter((v) => v.affix || v.path !== path));
  return tagsStore.get();
};

/** Keeps the affixed tags and the given one. */
export const closeOthers = (path: string): TagView[] => {
  tagsStore.set((views) => views.filter((v) => v.affix || v.path === path));
  return tagsStore.get();
};

/** Keeps only the affixed tags. */
export const closeAll = (): TagView[] => {
  tagsStore.set((views) => views.filter((v) => v.affix));
  return tagsStore.get();
};

/**
 * Where to go after closing the active tag: the last remaining one, or the root when none is left
 * (vue-element-admin's toLastView).
 */
export const lastViewPath = (views: TagView[]): string => views.at(-1)?.fullPath ?? '/';

// A new session starts with fresh tabs (spec §4: logout clears open tabs).
onSessionCleared(() => tagsStore.set([]));
