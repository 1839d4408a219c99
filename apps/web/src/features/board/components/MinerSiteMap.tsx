import { type CSSProperties, type ReactNode, type SyntheticEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from '../MinerBoardPage.module.css';
import { blockWidth, cellGap, cellsPerRow, type MapMetrics, type MapPage } from '../miner-layout';
import type { SiteFbox, SiteGroup, SiteMiner } from '../site-map';
import type { CardAnchor } from './MinerCard';
import { OnlineDot } from './OnlineDot';

interface Cells<M extends SiteMiner> {
  /** The band a miner's cell shows (its colour, by `data-colour` in the CSS). */
  bandOf: (miner: M) => string;
  style: CSSProperties;
}

/** A group's cells in slot order, each coloured by its band (in `data-colour`). */
const GroupCells = <M extends SiteMiner>({ group, cells }: { group: SiteGroup<M>; cells: Cells<M> }) => (
  <div className={styles.cells} style={cells.style}>
    {group.miners.map((miner) => (
      <span
        key={miner.id}
        className={styles.cell}
        data-miner={miner.id}
        data-colour={cells.bandOf(miner)}
        data-testid={`miner-cell-${miner.id}`}
      />
    ))}
  </div>
);

const FboxBlock = <M extends SiteMiner>({ fbox, cells }: { fbox: SiteFbox<M>; cells: Cells<M> }) => {
  const { t } = useTranslation();
  return (
    <section className={styles.fbox} data-testid={`miner-board-fbox-${fbox.id}`}>
      <h2 className={styles.fboxTitle}>
        <OnlineDot online={fbox.online} />
        <span className={styles.fboxName}>{fbox.name}</span>
        <span className={styles.fboxCount}>
          {t('board.miners.onlineOfTotal', { online: fbox.minersOnline, total: fbox.miners })}
        </span>
      </h2>
      {fbox.groups.length === 0 && <div className={styles.groupTitle}>{t('board.miners.noMiners')}</div>}
      {fbox.groups.map((group) => (
        <div key={group.key} className={styles.group}>
          <h3 className={styles.groupTitle}>
            {group.tank ? group.tank.name : t('board.miners.outsideTanks')}
          </h3>
          <GroupCells group={group} cells={cells} />
        </div>
      ))}
    </section>
  );
};

/**
 * The site map of one page: its FBOXes in `page.columns` blocks per row, every miner a square cell
 * of `page.pitch` coloured by `bandOf`. One card (`card`) serves every cell: the map listens for the
 * pointer (event delegation on `data-miner`), so ten thousand cells cost ten thousand spans and
 * nothing more.
 */
export const MinerSiteMap = <M extends SiteMiner>({
  fboxes,
  minersById,
  page,
  width,
  metrics,
  bandOf,
  card,
}: {
  fboxes: readonly SiteFbox<M>[];
  minersById: ReadonlyMap<number, M>;
  page: MapPage;
  width: number;
  metrics: MapMetrics & { unit: number };
  bandOf: (miner: M) => string;
  card: (miner: M, anchor: CardAnchor) => ReactNode;
}) => {
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<CardAnchor | null>(null);
  const shown = useMemo(() => {
    const wanted = new Set(page.fboxIds);
    return fboxes.filter((fbox) => wanted.has(fbox.id));
  }, [fboxes, page]);
  const gap = cellGap(page.pitch);
  const cell = page.pitch - gap;
  const measured = cellsPerRow(blockWidth(width, page.columns, metrics) - 2 * metrics.pad, page.pitch);
  const perRow = width > 0 && measured > 0 ? measured : 12;
  const cells: Cells<M> = {
    bandOf,
    style: {
      gridTemplateColumns: `repeat(${perRow}, ${cell}px)`,
      gridAutoRows: `${cell}px`,
      gap: `${gap}px`,
    },
  };
  const onPoint = (event: SyntheticEvent<HTMLDivElement>) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-miner]');
    if (!target) {
      if (event.type === 'click') setAnchor(null);
      return;
    }
    const minerId = Number(target.dataset.miner);
    if (anchor?.minerId === minerId && event.type !== 'click') return;
    const { left, top, right, bottom } = target.getBoundingClientRect();
    setAnchor({ minerId, rect: { left, top, right, bottom } });
  };
  const miner = anchor ? minersById.get(anchor.minerId) : undefined;
  const vars = {
    '--map-unit': `${metrics.unit}px`,
    '--map-fbox-header': `${metrics.fboxHeader}px`,
    '--map-group-header': `${metrics.groupHeader}px`,
    '--map-pad': `${metrics.pad}px`,
    '--map-gap': `${metrics.gap}px`,
  } as CSSProperties;
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the cells' card is a pointer aid; each cell's state is also in the legend and the miner list
    <div
      className={styles.map}
      style={vars}
      onMouseOver={onPoint}
      onFocus={onPoint}
      onClick={onPoint}
      onMouseLeave={() => setAnchor(null)}
      onKeyDown={(event) => event.key === 'Escape' && setAnchor(null)}
      data-testid="miner-board-map"
    >
      {shown.length === 0 ? (
        <div className={styles.empty}>{t('board.miners.noFboxes')}</div>
      ) : (
        <div
          className={styles.blocks}
          style={{ gridTemplateColumns: `repeat(${page.columns}, minmax(0, 1fr))` }}
        >
          {shown.map((fbox) => (
            <FboxBlock key={fbox.id} fbox={fbox} cells={cells} />
          ))}
        </div>
      )}
      {anchor && miner && card(miner, anchor)}
    </div>
  );
};
