import type { TankBoard } from '@fbox/contracts';
import { type CSSProperties, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useTankBoard } from './api';
import { BoardGate, BoardScreen } from './BoardScreen';
import { type BoardAddress, boardAddress } from './board-types';
import { pageCards } from './card-layout';
import { BoardTimes } from './components/BoardTimes';
import { TankCard } from './components/TankCard';
import styles from './TankBoardPage.module.css';
import { useElementSize } from './use-map-pages';

/** A card's lines of text (header, three readings, two drives) with its padding, in text heights. */
const cardLines = 8.4;
/** A card is at least this many times as wide as tall (label, value and threshold side by side). */
const cardAspect = 2.3;
/** A card's width in text heights: the longest row (label, value, threshold) fits it. */
const cardEms = 21;

/** The tanks in the board's order (FBOXes by name, tanks by position), each with its FBOX's name. */
const tanksOf = (data: TankBoard) =>
  data.fboxes.flatMap((fbox) => fbox.tanks.map((tank) => ({ tank, fbox: fbox.name })));

/**
 * The cards' grid for the area they fill, and the page showing now: text stays legible across a
 * room (14 px at 1080p, 28 px at 4K); when that many tanks do not fit, pages turn every
 * `pageSeconds`.
 */
const useTankPages = (count: number, pageSeconds: number) => {
  const ref = useRef<HTMLDivElement>(null);
  const size = useElementSize(ref);
  const gap = Math.round(size.screen / 120);
  const measured = size.width > 0 && size.height > 0;
  const pages = useMemo(
    () =>
      measured
        ? pageCards(count, size, gap, cardAspect, (14 * size.screen * cardLines) / 1080)
        : { columns: Math.min(4, Math.max(1, count)), rows: 1, height: 0, perPage: count, pages: 1 },
    [count, size, gap, measured],
  );
  const [index, setIndex] = useState(0);
  useEffect(() => {
    setIndex(0);
    if (pages.pages <= 1) return;
    const timer = window.setInterval(
      () => setIndex((shown) => (shown + 1) % pages.pages),
      Math.max(1, pageSeconds) * 1000,
    );
    return () => window.clearInterval(timer);
  }, [pages, pageSeconds]);
  const cardWidth = (size.width - (pages.columns - 1) * gap) / pages.columns;
  const font =
    pages.height > 0 ? Math.min(pages.height / cardLines, cardWidth / cardEms, size.screen / 28) : undefined;
  return { ref, pages, index: index % pages.pages, gap, font };
};

const TankBoardLayout = ({ data, stale }: { data: TankBoard; stale: boolean }) => {
  const { t } = useTranslation();
  const tanks = useMemo(() => tanksOf(data), [data]);
  const { ref, pages, index, gap, font } = useTankPages(tanks.length, data.board.page_seconds);
  const shown = tanks.slice(index * pages.perPage, (index + 1) * pages.perPage);
  const offline = tanks.filter(({ tank }) => !tank.online).length;
  const alarmed = tanks.filter(({ tank }) => tank.alerts.length > 0).length;
  const grid: CSSProperties = {
    gridTemplateColumns: `repeat(${pages.columns}, minmax(0, 1fr))`,
    gridTemplateRows: pages.height > 0 ? `repeat(${pages.rows}, ${pages.height}px)` : undefined,
    gap: `${gap}px`,
    fontSize: font === undefined ? undefined : `${font}px`,
  };
  return (
    <div className={styles.layout}>
      <header className={styles.header}>
        <h1 className={styles.title} data-testid="board-title">
          {data.board.title}
        </h1>
        <span className={styles.summary} data-testid="tank-board-summary">
          {t('board.tank.summary', { count: tanks.length })}
          {offline > 0 && (
            <span className={styles.muted}>{t('board.tank.offlineCount', { count: offline })}</span>
          )}
          {alarmed > 0 && (
            <span className={styles.alarmed}>{t('board.tank.alarmedCount', { count: alarmed })}</span>
          )}
        </span>
        {pages.pages > 1 && (
          <span className={styles.page} data-testid="tank-board-page">
            {t('board.miners.page', { page: index + 1, pages: pages.pages })}
          </span>
        )}
        <BoardTimes at={data.at} stale={stale} />
      </header>
      <div ref={ref} className={styles.area}>
        {tanks.length === 0 ? (
          <div className={styles.empty} data-testid="tank-board-empty">
            {t('board.tank.noTanks')}
          </div>
        ) : (
          <div className={styles.grid} style={grid} data-testid="tank-board-grid">
            {shown.map(({ tank, fbox }) => (
              <TankCard key={tank.id} tank={tank} fbox={fbox} data={data} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
};

const TankBoardView = ({ address }: { address: BoardAddress }) => {
  const board = useTankBoard(address);
  return (
    <BoardGate query={board} named={address.named}>
      {(data) => <TankBoardLayout data={data} stale={board.isError} />}
    </BoardGate>
  );
};

/**
 * A tank board (/tankBoard?id=…&area_id=…, or a kiosk link): every tank of the board's FBOXes as a
 * card, its oil temperatures and liquid level against the alert rules' thresholds, its pump and
 * fans, kept current by the mine's live feed.
 */
export const TankBoardPage = () => {
  const [search] = useSearchParams();
  const address = boardAddress(search);
  return (
    <BoardScreen address={address}>
      <TankBoardView address={address} />
    </BoardScreen>
  );
};
