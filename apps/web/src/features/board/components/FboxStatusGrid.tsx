import type { DataBoard } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import styles from '../DataBoardPage.module.css';
import tile from './BoardTile.module.css';
import { OnlineDot } from './OnlineDot';

/**
 * The covered FBOXes, each with an online or offline dot. Offline ones come first: when a large
 * mine's FBOXes do not all fit on the wall, those that need a look stay in view.
 */
export const FboxStatusGrid = ({ fboxes }: { fboxes: DataBoard['fboxes'] }) => {
  const { t } = useTranslation();
  const ordered = [...fboxes].sort((a, b) => Number(a.online) - Number(b.online));
  return (
    <section className={`${tile.tile} ${styles.fboxPanel}`} data-testid="board-fbox-grid">
      <h2 className={styles.panelTitle}>{t('board.data.fboxList')}</h2>
      {ordered.length === 0 ? (
        <div className={styles.muted}>{t('board.data.noFboxes')}</div>
      ) : (
        <ul className={styles.fboxGrid}>
          {ordered.map((fbox) => (
            <li key={fbox.id} className={styles.fbox} data-testid={`board-fbox-${fbox.id}`}>
              <OnlineDot online={fbox.online} />
              <span className={styles.fboxName}>{fbox.name}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
