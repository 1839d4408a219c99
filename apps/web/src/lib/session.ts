import type { Area } from '@fbox/contracts';
import { cookieNames, cookies } from './cookies';
import { storage, storageKeys } from './storage';
import { createStore } from './store';

/**
 * The local part of a session (spec §3 "User session", §4): token cookie, roles, the cached area
 * list, the selected area and a few user facts kept locally. Server state itself lives in TanStack Query.
 */
export const getToken = (): string | undefined => cookies.get(cookieNames.token) || undefined;
export const setToken = (token: string): void => cookies.set(cookieNames.token, token);

/**
 * The route roles of the signed-in user, from its user info: `admin` for a master account (spec §6),
 * its authority (`administrator` / `operator`) for a sub-account. `null` until the user info is read.
 */
export const rolesStore = createStore<readonly string[] | null>(null);
export const grantRoles = (roles: readonly string[]): void => rolesStore.set(roles);

/** Bumped on every login and logout, so delayed clean-ups of an older session can tell they are stale. */
let generation = 0;
export const sessionGeneration = (): number => generation;

const clearListeners = new Set<() => void>();
/** Lets other stores (tags view, query cache) forget what belongs to the ended session. */
export const onSessionCleared = (listener: () => void): (() => void) => {
  clearListeners.add(listener);
  return () => clearListeners.delete(listener);
};

export const startSession = (token: string): void => {
  generation += 1;
  setToken(token);
  rolesStore.set(null);
};

/** Clears token, roles and open tabs (spec §4). The area choice stays: it is a preference. */
export const clearSession = (): void => {
  generation += 1;
  cookies.remove(cookieNames.token);
  rolesStore.set(null);
  for (const listener of clearListeners) listener();
};

export const getCachedAreas = (): Area[] => storage.read<Area[]>(storageKeys.areaList, []);

/** Remembers the area list and makes sure the selected area is one of them (the first by default). */
export const rememberAreas = (areas: Area[]): Area | undefined => {
  storage.write(storageKeys.areaList, areas);
  const selected = areas.find((area) => area.id === getSelectedAreaId()) ?? areas[0];
  if (selected) {
    storage.write(storageKeys.areaId, selected.id);
    storage.write(storageKeys.electricityHz, selected.electricity_hz);
  } else {
    storage.remove(storageKeys.areaId);
  }
  return selected;
};

export const getSelectedAreaId = (): number | undefined =>
  storage.read<number | undefined>(storageKeys.areaId, undefined);

export const selectArea = (area: Area): void => {
  storage.write(storageKeys.areaId, area.id);
  storage.write(storageKeys.electricityHz, area.electricity_hz);
};

export const rememberUserName = (name: string): void => storage.write(storageKeys.userName, name);
export const getUserName = (): string => storage.read(storageKeys.userName, '');
