import { Code, type DataBoard } from '@fbox/contracts';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Spin from 'antd/es/spin';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { LiveClock } from '../../layout/LiveClock';
import { ApiError } from '../../lib/api';
import { useStore } from '../../lib/store';
import { formatTime, timeZoneStore } from '../../lib/time';
import { useDataBoard } from './api';
import { BoardFrame, BoardScreen } from './BoardScreen';
import { DataBoardCharts } from './components/DataBoardCharts';
import { DataBoardKpis } from './components/DataBoardKpis';
import { FboxStatusGrid } from './components/FboxStatusGrid';
import styles from './DataBoardPage.module.css';

/** A positive integer from the address; 0 when missing or malformed. */
const positive = (text: string | null): number => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : 0;
};

/** Title, what it covers, the time now and when its figures were read (said plainly when stale). */
const BoardHeader = ({ data, stale }: { data: DataBoard; stale: boolean }) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const scope =
    data.board.fbox_ids.length === 0
      ? t('board.fboxes.all')
      : t('board.fboxes.count', { count: data.fboxes.length });
  const readAt = formatTime(data.at, zone);
  return (
    <header className={styles.header}>
      <h1 className={styles.title} data-testid="board-title">
        {data.board.title}
      </h1>
      <span className={styles.scope} data-testid="board-scope">
        {scope}
      </span>
      <div className={styles.times}>
        <LiveClock className={styles.clock} testId="board-clock" />
        <span className={stale ? styles.stale : styles.muted} data-testid="board-read-at">
          {stale ? t('board.data.stale', { time: readAt }) : t('board.data.readAt', { time: readAt })}
        </span>
      </div>
    </header>
  );
};

/** Loading, or why there is nothing to show, with the way back to the list. */
const BoardProblem = ({ notFound, onRetry }: { notFound: boolean; onRetry: () => void }) => {
  const { t } = useTranslation();
  return (
    <Result
      status={notFound ? '404' : 'error'}
      title={notFound ? t('board.data.notFound') : t('board.data.error')}
      subTitle={notFound ? t('board.data.notFoundHint') : undefined}
      extra={[
        !notFound && (
          <Button key="retry" onClick={onRetry}>
            {t('common.action.retry')}
          </Button>
        ),
        <Link key="back" to="/board/boardList" data-testid="board-back">
          {t('board.data.backToList')}
        </Link>,
      ]}
      data-testid={notFound ? 'board-not-found' : 'board-error'}
    />
  );
};

const DataBoardView = ({ areaId, id }: { areaId: number; id: number }) => {
  const { t } = useTranslation();
  const board = useDataBoard(areaId, id);
  const title = board.data?.board.title;
  useEffect(() => {
    if (title) document.title = `${title} - ${t('app.brand.title')}`;
  }, [title, t]);

  const named = areaId > 0 && id > 0;
  if (named && board.isPending)
    return (
      <BoardFrame theme="dark" centered>
        <Spin size="large" />
      </BoardFrame>
    );
  if (!board.data) {
    const notFound = !named || (board.error instanceof ApiError && board.error.code === Code.NOT_FOUND);
    return (
      <BoardFrame theme="dark" centered>
        <BoardProblem notFound={notFound} onRetry={() => void board.refetch()} />
      </BoardFrame>
    );
  }
  return (
    <BoardFrame theme={board.data.board.theme}>
      <div className={styles.layout}>
        <BoardHeader data={board.data} stale={board.isError} />
        <DataBoardKpis data={board.data} />
        <DataBoardCharts data={board.data} />
        <FboxStatusGrid fboxes={board.data.fboxes} />
      </div>
    </BoardFrame>
  );
};

/**
 * A data board (/dataBoard?id=…&area_id=…), full-screen for a control room's wall: the figures of
 * the FBOXes it covers, kept current by the mine's live feed.
 */
export const DataBoardPage = () => {
  const [search] = useSearchParams();
  const areaId = positive(search.get('area_id'));
  const id = positive(search.get('id'));
  return (
    <BoardScreen areaId={areaId}>
      <DataBoardView areaId={areaId} id={id} />
    </BoardScreen>
  );
};
