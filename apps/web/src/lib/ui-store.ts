import { layoutDefaults } from '@fbox/contracts';
import { cookieNames, cookies } from './cookies';
import { storage, storageKeys } from './storage';
import { createStore, useStore } from './store';

/** Settings drawer choices (spec §2, defaults of §9), persisted in localStorage. */
export interface LayoutSettings {
  themeColor: string;
  tagsView: boolean;
  fixedHeader: boolean;
  sidebarLogo: boolean;
}

export const defaultSettings: LayoutSettings = {
  themeColor: layoutDefaults.themeColor,
  tagsView: layoutDefaults.tagsView,
  fixedHeader: layoutDefaults.fixedHeader,
  sidebarLogo: layoutDefaults.sidebarLogo,
};

/** Reads stored settings, keeping only known keys with the right types. */
export const loadSettings = (): LayoutSettings => {
  const stored = storage.read<Partial<Record<keyof LayoutSettings, unknown>>>(storageKeys.settings, {});
  const result = { ...defaultSettings };
  if (typeof stored.themeColor === 'string' && /^#[0-9a-f]{6}$/i.test(stored.themeColor)) {
    result.themeColor = stored.themeColor;
  }
  for (const key of ['tagsView', 'fixedHeader', 'sidebarLogo'] as const) {
    if (typeof stored[key] === 'boolean') result[key] = stored[key];
  }
  return result;
};

export const settingsStore = createStore<LayoutSettings>(loadSettings(), (settings) =>
  storage.write(storageKeys.settings, settings),
);

export const changeSetting = <K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]): void =>
  settingsStore.set((settings) => ({ ...settings, [key]: value }));

export const useSettings = (): LayoutSettings => useStore(settingsStore);

/** Sidebar open/closed, remembered in the `sidebarStatus` cookie ('1' open, '0' closed). */
export const sidebarStore = createStore<boolean>(cookies.get(cookieNames.sidebarStatus) !== '0');

export const toggleSidebar = (): void => {
  const opened = !sidebarStore.get();
  cookies.set(cookieNames.sidebarStatus, opened ? '1' : '0');
  sidebarStore.set(opened);
};

/** Closing for mobile mode or after a menu tap on mobile is not a preference: the cookie stays. */
export const closeSidebar = (): void => sidebarStore.set(false);

/** Back from mobile width: the sidebar is as the user last left it on a wide screen (the cookie). */
export const restoreSidebar = (): void => sidebarStore.set(cookies.get(cookieNames.sidebarStatus) !== '0');

export type Device = 'desktop' | 'mobile';
export const deviceStore = createStore<Device>('desktop');
