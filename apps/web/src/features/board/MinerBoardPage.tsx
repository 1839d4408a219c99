import type { MinerBoard } from '@fbox/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useMinerBoard } from './api';
import { BoardGate, BoardScreen } from './BoardScreen';
import { type BoardAddress, boardAddress } from './board-types';
import { BoardTimes } from './components/BoardTimes';
import { MinerCard } from './components/MinerCard';
import { MinerLegend } from './components/MinerLegend';
import { MinerSiteMap } from './components/MinerSiteMap';
import { MinerTotals } from './components/MinerTotals';
import styles from './MinerBoardPage.module.css';
import { type BoardMiner, minerBand, typicalPowerW } from './miner-colours';
import { buildSiteMap } from './site-map';
import { useMapPages } from './use-map-pages';

type Variant = 'board' | 'bigScreen';

/**
 * The site map at full screen: a header (title, legend, page, clock), the big screen's totals, and
 * the map filling the rest, page by page when the FBOXes do not all fit legibly.
 */
const MinerBoardLayout = ({
  data,
  stale,
  variant,
}: {
  data: MinerBoard;
  stale: boolean;
  variant: Variant;
}) => {
  const { t } = useTranslation();
  const fboxes = useMemo(() => buildSiteMap(data), [data]);
  const minersById = useMemo(() => new Map(data.miners.map((miner) => [miner.id, miner])), [data]);
  const typicalW = useMemo(() => typicalPowerW(data.miners), [data]);
  const pages = useMapPages(fboxes, data.board.page_seconds);
  const big = variant === 'bigScreen';
  return (
    <div className={`${styles.layout} ${big ? styles.big : ''}`}>
      <header className={styles.header}>
        <h1 className={styles.title} data-testid="board-title">
          {data.board.title}
        </h1>
        <MinerLegend metric={data.board.metric} typicalW={typicalW} />
        {pages.count > 1 && (
          <span className={styles.page} data-testid="miner-board-page">
            {t('board.miners.page', { page: pages.index + 1, pages: pages.count })}
          </span>
        )}
        <BoardTimes at={data.at} stale={stale} />
      </header>
      {big && <MinerTotals miners={data.miners} />}
      <div ref={pages.ref} className={styles.mapArea}>
        <MinerSiteMap
          key={pages.index}
          fboxes={fboxes}
          minersById={minersById}
          page={pages.page}
          width={pages.width}
          metrics={pages.metrics}
          bandOf={(miner: BoardMiner) => minerBand(data.board.metric, miner, typicalW)}
          card={(miner, anchor) => <MinerCard miner={miner} anchor={anchor} />}
        />
      </div>
    </div>
  );
};

const MinerBoardView = ({ address, variant }: { address: BoardAddress; variant: Variant }) => {
  const board = useMinerBoard(address);
  return (
    <BoardGate query={board} named={address.named}>
      {(data) => <MinerBoardLayout data={data} stale={board.isError} variant={variant} />}
    </BoardGate>
  );
};

const MinerBoardScreen = ({ variant }: { variant: Variant }) => {
  const [search] = useSearchParams();
  const address = boardAddress(search);
  return (
    <BoardScreen address={address}>
      <MinerBoardView address={address} variant={variant} />
    </BoardScreen>
  );
};

/**
 * A miner board (/minerBoard?id=…&area_id=…): the site map of the board's FBOXes, every miner a
 * cell coloured by the board's metric, kept current by the mine's live feed.
 */
export const MinerBoardPage = () => <MinerBoardScreen variant="board" />;

/** The miner big screen (/minerBigScreen): the same site map under the mine's totals, in wall-sized type. */
export const MinerBigScreenPage = () => <MinerBoardScreen variant="bigScreen" />;
