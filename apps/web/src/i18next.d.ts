import 'i18next';
import type { sharedEn } from '@fbox/contracts';
import type { en } from './locales/en';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    keySeparator: false;
    nsSeparator: false;
    resources: { translation: typeof en & typeof sharedEn };
  }
}
