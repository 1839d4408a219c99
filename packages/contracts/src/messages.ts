/**
 * Texts shared by server and web: envelope messages, validation rules and field names. The server
 * localizes `msg` with them; the web uses the same keys for form rules so both say the same thing.
 * Interpolation uses i18next's `{{name}}` form. `zh` is typed against `en`, so a missing key fails
 * the typecheck. Each language is a module of its own (messages-en.ts, messages-zh.ts), so the
 * web loads only the one it shows.
 */
import { type SharedMessageKey, sharedEn } from './messages-en.js';
import { sharedZh } from './messages-zh.js';

export { type SharedMessageKey, sharedEn } from './messages-en.js';
export { sharedZh } from './messages-zh.js';

export const sharedMessages = { en: sharedEn as Record<SharedMessageKey, string>, zh: sharedZh } as const;

export type Language = keyof typeof sharedMessages;

/** Replaces `{{name}}` placeholders. */
export const interpolate = (text: string, params: Record<string, string | number> = {}): string =>
  text.replace(/\{\{(\w+)\}\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));

/** `en-us`, `zh-cn`, `zh`, `en` … → our two languages; anything else is English. */
export const parseLanguage = (value: string | null | undefined): Language =>
  value?.toLowerCase().startsWith('zh') ? 'zh' : 'en';

/** A shared message in one language, with parameters filled in. */
/**
 * A miner's fault codes in words (`fan, chain` → "Fan, Hash board chain"); a code no message names (a
 * new firmware's) stays as reported.
 */
export const faultLabel = (lang: Language, codes: string): string =>
  codes
    .split(',')
    .map((code) => code.trim())
    .filter(Boolean)
    .map((code) => (sharedMessages[lang] as Record<string, string>)[`fault.${code}`] ?? code)
    .join(lang === 'zh' ? '、' : ', ');

export const translate = (
  lang: Language,
  key: SharedMessageKey,
  params?: Record<string, string | number>,
): string => interpolate(sharedMessages[lang][key], params);
