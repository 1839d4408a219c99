/**
 * Whether the console is still opening: the document has loaded and no page has been shown yet
 * (`RootGuard` ends it when it first renders). The first page's loader may wait for its data then,
 * and the first page renders as a transition (`ConsoleRouter`).
 */
let opening = true;
const listeners = new Set<() => void>();

export const isOpening = (): boolean => opening;

export const markOpened = (): void => {
  if (!opening) return;
  opening = false;
  for (const listener of listeners) listener();
  listeners.clear();
};

/** Calls `listener` when the console has opened; answers the unsubscribe (`useSyncExternalStore`). */
export const subscribeOpening = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
