import Cookies from 'js-cookie';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const load = async () => {
  vi.resetModules();
  return import('./ui-store');
};

describe('settings store', () => {
  beforeEach(() => {
    window.localStorage.clear();
    Cookies.remove('sidebarStatus');
  });

  it('starts from the spec defaults', async () => {
    const { settingsStore } = await load();
    expect(settingsStore.get()).toEqual({
      themeColor: '#1890ff',
      tagsView: true,
      fixedHeader: true,
      sidebarLogo: true,
    });
  });

  it('persists changes and reads them back after a reload', async () => {
    const first = await load();
    first.changeSetting('tagsView', false);
    first.changeSetting('themeColor', '#13c2c2');
    const second = await load();
    expect(second.settingsStore.get()).toMatchObject({
      tagsView: false,
      themeColor: '#13c2c2',
      fixedHeader: true,
    });
  });

  it('ignores broken stored values', async () => {
    window.localStorage.setItem('fbox.settings', JSON.stringify({ themeColor: 'red', tagsView: 'no' }));
    const { settingsStore } = await load();
    expect(settingsStore.get()).toMatchObject({ themeColor: '#1890ff', tagsView: true });
  });

  it('remembers the sidebar state in a cookie', async () => {
    const first = await load();
    expect(first.sidebarStore.get()).toBe(true);
    first.toggleSidebar();
    expect(Cookies.get('sidebarStatus')).toBe('0');
    const second = await load();
    expect(second.sidebarStore.get()).toBe(false);
  });

  it('closes the sidebar for a narrow screen without forgetting the choice, and restores it when wide again', async () => {
    const ui = await load();
    expect(ui.sidebarStore.get()).toBe(true);
    ui.closeSidebar();
    expect(ui.sidebarStore.get()).toBe(false);
    expect(Cookies.get('sidebarStatus')).not.toBe('0');
    ui.restoreSidebar();
    expect(ui.sidebarStore.get()).toBe(true);
    // A sidebar the user closed stays closed when the screen widens.
    ui.toggleSidebar();
    ui.restoreSidebar();
    expect(ui.sidebarStore.get()).toBe(false);
  });
});
