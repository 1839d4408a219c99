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

/**
 * Shows a toast for `seconds`; resolves when it closes. `outlivesLayout` is for toasts shown while
 * leaving the signed-in area (session ended): the layout's toast host unmounts, the static one stays.
 */
export const toast = async (
  kind: Kind,
  text: string,
  seconds: number,
  { outlivesLayout = false }: { outlivesLayout?: boolean } = {},
): Promise<void> => {
  const api = (!outlivesLayout && messageApi) || (await staticApi());
  await new Promise<void>((resolve) => {
    void api[kind](text, seconds, () => resolve());
  });
};

/** Closes toasts of the static message API (a failed login's error once the login succeeded). */
export const clearToasts = (): void => {
  void import('antd/es/message').then(({ default: message }) => message.destroy());
};
