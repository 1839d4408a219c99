import type { Language } from './messages.js';

/**
 * The interface language (spec §1): the `language` cookie first, then the browser's language (the
 * web's `navigator.language`, the server's `Accept-Language`), then English. Only en and zh are
 * offered. The server uses it to name the texts a page will load (`spa.plugin.ts`).
 */
export const detectLanguage = (cookie: string | undefined, browser: string | undefined): Language => {
  if (cookie === 'en' || cookie === 'zh') return cookie;
  if (browser?.toLowerCase().startsWith('zh')) return 'zh';
  return 'en';
};
