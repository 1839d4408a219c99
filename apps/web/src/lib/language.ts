import type { Language } from '@fbox/contracts';

/**
 * The interface language (spec §1): the `language` cookie first, then the browser language, then
 * English. Only en and zh are offered.
 */
export const detectLanguage = (cookie: string | undefined, browser: string | undefined): Language => {
  if (cookie === 'en' || cookie === 'zh') return cookie;
  if (browser?.toLowerCase().startsWith('zh')) return 'zh';
  return 'en';
};

/** The `lang` header value the server expects. */
export const langHeader = (language: Language): string => (language === 'zh' ? 'zh-cn' : 'en-us');
