/** localStorage with JSON values; a broken or blocked storage behaves as empty. */
export const storage = {
  read<T>(key: string, fallback: T): T {
    try {
      const text = window.localStorage.getItem(key);
      return text === null ? fallback : (JSON.parse(text) as T);
    } catch {
      return fallback;
    }
  },
  write(key: string, value: unknown): void {
    try {
      window.localStorage.setItem(key, JSON.stringify(value));
    } catch {
      // Storage full or disabled: the value just is not remembered.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(key);
    } catch {
      // Nothing stored to remove.
    }
  },
};

/** Every key the console keeps in localStorage, in one place. */
export const storageKeys = {
  settings: 'fbox.settings',
  areaList: 'fbox.areaList',
  areaId: 'fbox.areaId',
  userName: 'fbox.userName',
  electricityHz: 'fbox.electricityHz',
  /** Followed by a table id: the columns the user hid in that table. */
  columnsPrefix: 'fbox.columns.',
} as const;
