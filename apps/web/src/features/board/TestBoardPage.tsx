import type { TestBoard } from '@fbox/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { showPercent, showTemperature } from '../../lib/values';
import { useTestBoard } from './api';
import { BoardGate, BoardScreen } from './BoardScreen';
import { type BoardAddress, boardAddress } from './board-types';
import { BoardTile } from './components/BoardTile';
import { BoardTimes } from './components/BoardTimes';
import { MinerSiteMap } from './components/MinerSiteMap';
import { type TestMiner, TestMinerCard } from './components/TestMinerCard';
import styles from './MinerBoardPage.module.css';
import { buildSiteMap } from './site-map';
import { useMapPages } from './use-map-pages';

/** A cell's band is the miner's verdict: pass, fail, no data (`data-colour`, coloured in the CSS). */
const bandOf = (miner: TestMiner) => miner.verdict;

/** What the colours mean, and the test the verdicts come from (window, pass ratio, chip limit). */
const TestLegend = ({ board }: { board: TestBoard['board'] }) => {
  const { t } = useTranslation();
  return (
    <div className={styles.legend} data-testid="test-board-legend">
      <span className={styles.legendTitle}>
        {t('board.test.criteria', {
          hours: board.test_hours,
          ratio: showPercent(board.pass_ratio),
          temperature: showTemperature(board.max_chip_temp),
        })}
      </span>
      {(
        [
          ['pass', t('board.test.pass')],
          ['fail', t('board.test.fail')],
          ['no_data', t('board.test.noData')],
        ] as const
      ).map(([band, label]) => (
        <span key={band} className={styles.legendItem}>
          <span className={styles.swatch} data-colour={band} />
          {label}
        </span>
      ))}
    </div>
  );
};

/** The counts at the top: miners passed, failed (by criterion), without data, of all tested. */
const TestCounts = ({ data }: { data: TestBoard }) => {
  const { t } = useTranslation();
  const { counts } = data;
  return (
    <div className={styles.totals}>
      <BoardTile label={t('board.test.passed')} testId="test-count-pass">
        <span className={styles.online}>{counts.pass}</span>
      </BoardTile>
      <BoardTile
        label={t('board.test.failed')}
        note={t('board.test.failedBy', { hashrate: counts.hashrate, temperature: counts.temperature })}
        testId="test-count-fail"
      >
        <span className={counts.fail > 0 ? styles.failing : undefined}>{counts.fail}</span>
      </BoardTile>
      <BoardTile label={t('board.test.noData')} testId="test-count-no-data">
        {counts.no_data}
      </BoardTile>
      <BoardTile label={t('board.test.tested')} testId="test-count-all">
        {data.miners.length}
      </BoardTile>
    </div>
  );
};

const TestBoardLayout = ({ data, stale }: { data: TestBoard; stale: boolean }) => {
  const { t } = useTranslation();
  const fboxes = useMemo(() => buildSiteMap(data), [data]);
  const minersById = useMemo(() => new Map(data.miners.map((miner) => [miner.id, miner])), [data]);
  const pages = useMapPages(fboxes, data.board.page_seconds);
  return (
    <div className={styles.layout}>
      <header className={styles.header}>
        <h1 className={styles.title} data-testid="board-title">
          {data.board.title}
        </h1>
        <TestLegend board={data.board} />
        {pages.count > 1 && (
          <span className={styles.page} data-testid="miner-board-page">
            {t('board.miners.page', { page: pages.index + 1, pages: pages.count })}
          </span>
        )}
        <BoardTimes at={data.at} stale={stale} />
      </header>
      <TestCounts data={data} />
      <div ref={pages.ref} className={styles.mapArea}>
        <MinerSiteMap
          key={pages.index}
          fboxes={fboxes}
          minersById={minersById}
          page={pages.page}
          width={pages.width}
          metrics={pages.metrics}
          bandOf={bandOf}
          card={(miner, anchor) => <TestMinerCard miner={miner} anchor={anchor} />}
        />
      </div>
    </div>
  );
};

const TestBoardView = ({ address }: { address: BoardAddress }) => {
  const board = useTestBoard(address);
  return (
    <BoardGate query={board} named={address.named}>
      {(data) => <TestBoardLayout data={data} stale={board.isError} />}
    </BoardGate>
  );
};

/**
 * A miner commissioning board (/minerBoardTest?id=…&area_id=…, or a kiosk link): for a newly
 * installed FBOX, each miner's pass or fail over the board's test window on the site map, with the
 * counts on top; kept current by the mine's live feed.
 */
export const TestBoardPage = () => {
  const [search] = useSearchParams();
  const address = boardAddress(search);
  return (
    <BoardScreen address={address}>
      <TestBoardView address={address} />
    </BoardScreen>
  );
};
