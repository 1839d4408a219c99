import type { Language } from '@fbox/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { cookieNames, cookies } from './cookies';
import { detectLanguage } from './language';
import { createStore } from './store';

/**
 * Each language's texts are a chunk of their own, fetched when first needed, so a visitor downloads
 * one language, not all of them.
 */
const loaders: Record<Language, () => Promise<Record<string, string>>> = {
  en: () => import('../locales/bundle-en').then((m) => m.texts),
  zh: () => import('../locales/bundle-zh').then((m) => m.texts),
};

const initial = detectLanguage(cookies.get(cookieNames.language), globalThis.navigator?.language);

/** The current language as a store, so non-i18n parts (antd locale, API header) follow it. */
export const languageStore = createStore<Language>(initial);

/** Makes sure a language's texts are in i18next. */
export const loadLanguage = async (language: Language): Promise<void> => {
  if (i18n.hasResourceBundle(language, 'translation')) return;
  i18n.addResourceBundle(language, 'translation', await loaders[language]());
};

/** Resolves when the initial language is loaded; render after it so no key flashes on screen. */
export const i18nReady: Promise<void> = i18n
  .use(initReactI18next)
  .init({
    resources: {},
    lng: initial,
    fallbackLng: false,
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  })
  .then(() => loadLanguage(initial))
  .then(() => i18n.changeLanguage(initial))
  .then(() => undefined);

/**
 * Switches texts and (through languageStore) the antd and dayjs locales without a reload, and remembers
 * the choice in the cookie.
 */
export const changeLanguage = async (language: Language): Promise<void> => {
  cookies.set(cookieNames.language, language);
  await loadLanguage(language);
  languageStore.set(language);
  await i18n.changeLanguage(language);
};

export { i18n };
