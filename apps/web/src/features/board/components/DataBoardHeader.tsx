import type { DataBoard } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import styles from '../DataBoardPage.module.css';
import { BoardTimes } from './BoardTimes';

/** Title, what it covers, the time now and when its figures were read (said plainly when stale). */
export const BoardHeader = ({ data, stale }: { data: DataBoard; stale: boolean }) => {
  const { t } = useTranslation();
  const scope =
    data.board.fbox_ids.length === 0
      ? t('board.fboxes.all')
      : t('board.fboxes.count', { count: data.fboxes.length });
  return (
    <header className={styles.header}>
      <h1 className={styles.title} data-testid="board-title">
        {data.board.title}
      </h1>
      <span className={styles.scope} data-testid="board-scope">
        {scope}
      </span>
      <BoardTimes at={data.at} stale={stale} />
    </header>
  );
};
