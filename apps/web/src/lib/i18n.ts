import type { Language } from '@fbox/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { cookieNames, cookies } from './cookies';
import { detectLanguage } from './language';
import { createStore } from './store';

/**
 * Each language's texts are chunks of their own, fetched when first needed, so a visitor downloads
 * one language, not all of them: those needed before sign-in at start (the login page's, the
 * shell's titles, common actions, the server's messages), the pages' with the first page after it.
 */
type Texts = () => Promise<Record<string, string>>;
const loaders: Record<Language, { core: Texts; console: Texts }> = {
  en: {
    core: () => import('../locales/bundle-en').then((m) => m.texts),
    console: () => import('../locales/bundle-console-en').then((m) => m.texts),
  },
  zh: {
    core: () => import('../locales/bundle-zh').then((m) => m.texts),
    console: () => import('../locales/bundle-console-zh').then((m) => m.texts),
  },
};
type Part = keyof (typeof loaders)[Language];
/** The parts wanted in every language shown: `console` once a page after sign-in asked for it. */
const wanted = new Set<Part>(['core']);
const loaded = new Map<string, Promise<void>>();

const loadPart = (language: Language, part: Part): Promise<void> => {
  const key = `${language}:${part}`;
  let loading = loaded.get(key);
  if (!loading) {
    loading = loaders[language][part]().then((texts) => {
      i18n.addResourceBundle(language, 'translation', texts, true, true);
    });
    // A failed fetch (offline) is tried again next time.
    loading.catch(() => loaded.delete(key));
    loaded.set(key, loading);
  }
  return loading;
};

const initial = detectLanguage(cookies.get(cookieNames.language), globalThis.navigator?.language);

/** The current language as a store, so non-i18n parts (antd locale, API header) follow it. */
export const languageStore = createStore<Language>(initial);

/** Makes sure a language's texts are in i18next (the pages' too once they were asked for). */
export const loadLanguage = async (language: Language): Promise<void> => {
  await Promise.all([...wanted].map((part) => loadPart(language, part)));
};

/**
 * The pages' texts of the current language, and of every language switched to from now on: what
 * every route but the login page awaits along with its code (app/router.tsx).
 */
export const loadConsoleTexts = async (): Promise<void> => {
  wanted.add('console');
  await loadPart(languageStore.get(), 'console');
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
