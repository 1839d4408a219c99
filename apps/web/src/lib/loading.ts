import { createStore } from './store';

/** Requests in flight that asked for the global loading overlay. */
export const loadingStore = createStore(0);

export const beginLoading = (): void => loadingStore.set((count) => count + 1);
export const endLoading = (): void => loadingStore.set((count) => Math.max(0, count - 1));
