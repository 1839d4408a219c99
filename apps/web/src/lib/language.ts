import type { Language } from '@fbox/contracts';

/** The interface language (spec §1), decided as the server decides it for a page's texts. */
export { detectLanguage } from '@fbox/contracts';

/** The `lang` header value the server expects. */
export const langHeader = (language: Language): string => (language === 'zh' ? 'zh-cn' : 'en-us');
