import { useTranslation } from 'react-i18next';
import styles from './OnlineDot.module.css';

/** An FBOX's online state on a board, named for screen readers. */
export const OnlineDot = ({ online }: { online: boolean }) => {
  const { t } = useTranslation();
  return (
    <span
      role="img"
      aria-label={online ? t('common.status.online') : t('common.status.offline')}
      className={`${styles.dot} ${online ? styles.online : styles.offline}`}
    />
  );
};
