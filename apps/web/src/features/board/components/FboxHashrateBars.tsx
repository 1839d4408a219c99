import type { DataBoard } from '@fbox/contracts';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { showHashrate } from '../../../lib/values';
import styles from '../DataBoardNewPage.module.css';
import { useElementSize } from '../use-map-pages';
import tile from './BoardTile.module.css';

/** A bar's line, in text heights (name, bar and value side by side, with the gap). */
const lineEms = 1.9;

/**
 * The bars' text: as large as the lines allow, between legible across a room (the window's height
 * ÷ 64: 17 px at 1080p) and a headline's size (÷ 36); smaller ones split into columns first.
 */
const barFont = (height: number, screen: number, count: number) => {
  const fill = count > 0 && height > 0 ? height / (count * lineEms) : screen / 36;
  return Math.max(12, screen / 64, Math.min(screen / 36, fill));
};

/**
 * Each covered FBOX's realtime hashrate as a bar against the largest, offline ones greyed. The
 * FBOXes go in columns when many; those that still do not fit are counted ("+3 more") rather than
 * scrolled to, offline ones and the weakest shown first so the ones that need a look stay in view.
 */
export const FboxHashrateBars = ({ fboxes }: { fboxes: DataBoard['fboxes'] }) => {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const size = useElementSize(ref);
  const font = barFont(size.height, size.screen, fboxes.length);
  const perColumn = Math.max(1, Math.floor(size.height / (font * lineEms)));
  const columns = Math.min(4, Math.max(1, Math.ceil(fboxes.length / perColumn)));
  const room = size.height > 0 ? perColumn * columns : fboxes.length;
  const ordered =
    fboxes.length > room
      ? [...fboxes].sort((a, b) => Number(a.online) - Number(b.online) || a.hashrate - b.hashrate)
      : fboxes;
  const shown = ordered.slice(0, fboxes.length > room ? room - 1 : room);
  const max = Math.max(0, ...fboxes.map((f) => f.hashrate));
  return (
    <section className={`${tile.tile} ${styles.barsPanel}`} data-testid="board-fbox-bars">
      <h2 className={styles.panelTitle}>{t('board.dataNew.fboxHashrate')}</h2>
      <div ref={ref} className={styles.barsArea}>
        {fboxes.length === 0 ? (
          <div className={styles.muted}>{t('board.data.noFboxes')}</div>
        ) : (
          <ul
            className={styles.bars}
            style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, fontSize: `${font}px` }}
          >
            {shown.map((fbox) => (
              <li
                key={fbox.id}
                className={styles.bar}
                data-online={fbox.online}
                data-testid={`board-fbox-bar-${fbox.id}`}
              >
                <span className={styles.barName}>{fbox.name}</span>
                <span className={styles.barTrack}>
                  <span
                    className={styles.barFill}
                    style={{ width: `${max > 0 ? (fbox.hashrate / max) * 100 : 0}%` }}
                  />
                </span>
                <span className={styles.barValue}>
                  {fbox.online ? showHashrate(fbox.hashrate) : t('common.status.offline')}
                </span>
              </li>
            ))}
            {shown.length < fboxes.length && (
              <li className={styles.more} data-testid="board-fbox-bars-more">
                {t('board.fboxes.more', { count: fboxes.length - shown.length })}
              </li>
            )}
          </ul>
        )}
      </div>
    </section>
  );
};
