import { useTranslation } from 'react-i18next';
import { LiveClock } from '../../../layout/LiveClock';
import { useStore } from '../../../lib/store';
import { formatTime, timeZoneStore } from '../../../lib/time';
import styles from '../BoardScreen.module.css';

/** The time now and when the board's figures were read (said plainly when they could not be refreshed). */
export const BoardTimes = ({ at, stale }: { at: number; stale: boolean }) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const readAt = formatTime(at, zone);
  return (
    <div className={styles.times}>
      <LiveClock className={styles.clock} testId="board-clock" />
      <span className={stale ? styles.stale : styles.muted} data-testid="board-read-at">
        {stale ? t('board.data.stale', { time: readAt }) : t('board.data.readAt', { time: readAt })}
      </span>
    </div>
  );
};
