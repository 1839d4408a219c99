import { beforeEach, describe, expect, it } from 'vitest';
import { clearSession } from '../lib/session';
import {
  addView,
  closeAll,
  closeOthers,
  closeView,
  lastViewPath,
  type TagView,
  tagsStore,
} from './tags-store';

const home: TagView = { path: '/index', fullPath: '/index', titleKey: 'app.route.home', affix: true };
const view = (path: string, query = ''): TagView => ({
  path,
  fullPath: `${path}${query}`,
  titleKey: 'app.route.boxList',
  affix: false,
});

describe('tags store', () => {
  beforeEach(() => {
    tagsStore.set([]);
    addView(view('/a'));
    addView(home);
    addView(view('/b'));
    addView(view('/c'));
  });

  it('keeps affixed tags first and does not duplicate a page', () => {
    addView(view('/b', '?page=2'));
    expect(tagsStore.get().map((v) => v.fullPath)).toEqual(['/index', '/a', '/b?page=2', '/c']);
  });

  it('puts a redirect target in the place of the page it replaced', () => {
    addView(view('/b2'), '/b');
    expect(tagsStore.get().map((v) => v.path)).toEqual(['/index', '/a', '/b2', '/c']);
    addView(view('/index'), '/b2');
    expect(tagsStore.get().map((v) => v.path)).toEqual(['/index', '/a', '/c']);
  });

  it('never closes an affixed tag', () => {
    closeView('/index');
    expect(tagsStore.get().map((v) => v.path)).toContain('/index');
  });

  it('closes others but keeps the affixed and the chosen one', () => {
    expect(closeOthers('/b').map((v) => v.path)).toEqual(['/index', '/b']);
  });

  it('closes all but the affixed tags', () => {
    expect(closeAll().map((v) => v.path)).toEqual(['/index']);
  });

  it('goes to the last remaining tag after closing the active one', () => {
    expect(lastViewPath(closeView('/c'))).toBe('/b');
    expect(lastViewPath(closeAll())).toBe('/index');
    expect(lastViewPath([])).toBe('/');
  });

  it('forgets the tabs when the session ends', () => {
    clearSession();
    expect(tagsStore.get()).toEqual([]);
  });
});
