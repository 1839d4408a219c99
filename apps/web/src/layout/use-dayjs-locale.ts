import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { useEffect } from 'react';
import { languageStore } from '../lib/i18n';
import { useStore } from '../lib/store';

/** dayjs follows the interface language (only pages behind sign-in format dates). */
export const useDayjsLocale = (): void => {
  const language = useStore(languageStore);
  useEffect(() => {
    dayjs.locale(language === 'zh' ? 'zh-cn' : 'en');
  }, [language]);
};
