import { type Language, sharedEn, sharedZh } from '@fbox/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { en } from '../locales/en';
import { zh } from '../locales/zh';
import { cookieNames, cookies } from './cookies';
import { detectLanguage } from './language';
import { createStore } from './store';

/** Web texts plus the texts shared with the server (`field.*`, `rule.*`, `alertLevel.*`, `api.*`). */
export const resources = {
  en: { translation: { ...sharedEn, ...en } },
  zh: { translation: { ...sharedZh, ...zh } },
} as const;

const initial = detectLanguage(cookies.get(cookieNames.language), globalThis.navigator?.language);

/** The current language as a store, so non-i18n parts (antd locale, API header) follow it. */
export const languageStore = createStore<Language>(initial);

void i18n.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: 'en',
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/**
 * Switches texts and (through languageStore) the antd and dayjs locales without a reload, and remembers
 * the choice in the cookie.
 */
export const changeLanguage = (language: Language): void => {
  cookies.set(cookieNames.language, language);
  languageStore.set(language);
  void i18n.changeLanguage(language);
};

export { i18n };
