import type { DataBoard } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDataBoard } from './api';
import { BoardGate, BoardScreen } from './BoardScreen';
import { type BoardAddress, boardAddress } from './board-types';
import { BoardTimes } from './components/BoardTimes';
import { DataBoardCharts } from './components/DataBoardCharts';
import { DataBoardKpis } from './components/DataBoardKpis';
import { FboxStatusGrid } from './components/FboxStatusGrid';
import styles from './DataBoardPage.module.css';

/** Title, what it covers, the time now and when its figures were read (said plainly when stale). */
const BoardHeader = ({ data, stale }: { data: DataBoard; stale: boolean }) => {
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

const DataBoardView = ({ address }: { address: BoardAddress }) => {
  const board = useDataBoard(address);
  return (
    <BoardGate query={board} named={address.named}>
      {(data) => (
        <div className={styles.layout}>
          <BoardHeader data={data} stale={board.isError} />
          <DataBoardKpis data={data} />
          <DataBoardCharts data={data} />
          <FboxStatusGrid fboxes={data.fboxes} />
        </div>
      )}
    </BoardGate>
  );
};

/**
 * A data board (/dataBoard?id=…&area_id=…), full-screen for a control room's wall: the figures of
 * the FBOXes it covers, kept current by the mine's live feed.
 */
export const DataBoardPage = () => {
  const [search] = useSearchParams();
  const address = boardAddress(search);
  return (
    <BoardScreen address={address}>
      <DataBoardView address={address} />
    </BoardScreen>
  );
};
