import type { MessageInstance } from 'antd/es/message/interface';

type MessageApi = Pick<MessageInstance, 'success' | 'error' | 'warning' | 'info'>;

/**
 * Toasts for code outside React. Inside the layout the app registers antd's context-aware message
 * API (it follows the theme); before that (the login page) antd's static message is loaded on the
 * first toast, so it is not part of the initial bundle. Tests register a fake.
 */
let messageApi: MessageApi | null = null;

export const setMessageApi = (api: MessageApi | null): void => {
  messageApi = api;
};

let staticOverride: MessageApi | null = null;

/** Replaces antd's static message (tests). */
export const setStaticMessageApi = (api: MessageApi | null): void => {
  staticOverride = api;
};

const staticApi = async (): Promise<MessageApi> =>
  staticOverride ?? (await import('antd/es/message')).default;

type Kind = 'success' | 'error' | 'warning' | 'info';

/** Toasts on screen, by kind and text: the same one asked for again is not shown twice. */
const showing = new Map<string, Promise<void>>();

/**
 * Shows a toast for `seconds`; resolves when it closes. `outlivesLayout` is for toasts shown while
 * leaving the signed-in area (session ended): the layout's toast host unmounts, the static one stays.
 * One event is one message: while a toast is on screen, the same kind and text (several requests
 * failing alike at once, e.g. an ended session) join it instead of stacking.
 */
export const toast = (
  kind: Kind,
  text: string,
  seconds: number,
  { outlivesLayout = false }: { outlivesLayout?: boolean } = {},
): Promise<void> => {
  const key = `${kind}\u0000${text}`;
  const shown = showing.get(key);
  if (shown) return shown;
  const closed = (async () => {
    const api = (!outlivesLayout && messageApi) || (await staticApi());
    await new Promise<void>((resolve) => {
      // Whichever comes first: the toast's close, or its time (a host that never calls back).
      const timer = setTimeout(resolve, seconds * 1000);
      void api[kind](text, seconds, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  })().finally(() => showing.delete(key));
  showing.set(key, closed);
  return closed;
};

/** Closes toasts of the static message API (a failed login's error once the login succeeded). */
export const clearToasts = (): void => {
  void import('antd/es/message').then(({ default: message }) => message.destroy());
};
