import { useTranslation } from 'react-i18next';
import { changeLanguage, languageStore } from '../lib/i18n';
import { useStore } from '../lib/store';
import styles from './LangSwitch.module.css';

/**
 * EN ↔ 中文 toggle (spec §2); the choice survives reloads through the `language` cookie. A plain
 * button (styled like antd's text button) because it is on /login, whose bundle must stay small.
 */
export const LangSwitch = ({ inverted = false }: { inverted?: boolean }) => {
  const { t } = useTranslation();
  const language = useStore(languageStore);
  const onToggle = () => void changeLanguage(language === 'en' ? 'zh' : 'en');
  return (
    <button
      type="button"
      className={inverted ? `${styles.switch} ${styles.inverted}` : styles.switch}
      data-testid="lang-switch"
      title={t('common.lang.switchTo')}
      aria-label={t('common.lang.switchTo')}
      onClick={onToggle}
    >
      {t('common.lang.current')}
    </button>
  );
};
