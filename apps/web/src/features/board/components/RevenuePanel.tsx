import type { BoardRevenue } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import { NO_DATA } from '../../../lib/values';
import tile from './BoardTile.module.css';
import styles from './RevenuePanel.module.css';

/** A coin amount to the satoshi (8 digits), as the Revenue screen shows it. */
const coinText = (value: number | null, coin: string) =>
  value === null ? NO_DATA : `${value.toFixed(8)} ${coin}`;
const fiatText = (value: number | null, fiat: string) =>
  value === null
    ? NO_DATA
    : `${value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${fiat}`;

const sourceKeys = {
  pool: 'board.revenue.pool',
  estimated: 'board.revenue.estimated',
  none: 'board.revenue.none',
} as const;

const Day = ({
  label,
  day,
  revenue,
  testId,
}: {
  label: string;
  day: BoardRevenue['today'];
  revenue: BoardRevenue;
  testId: string;
}) => {
  const { t } = useTranslation();
  return (
    <div className={styles.day} data-testid={testId}>
      <div className={styles.dayLabel}>
        {label}
        <span className={styles.source} data-source={day.source}>
          {t(sourceKeys[day.source])}
        </span>
      </div>
      <div className={styles.fiat}>{fiatText(day.fiat, revenue.fiat)}</div>
      <div className={styles.coin}>{coinText(day.coin, revenue.coin)}</div>
    </div>
  );
};

/**
 * The mine's revenue today and yesterday on a data board: in fiat large, in coin under it, each
 * day labelled pool-reported or estimated. The whole mine's (pools credit mines, not FBOXes), which
 * the panel says when the board covers only some FBOXes.
 */
export const RevenuePanel = ({
  revenue,
  wholeMine,
  className,
}: {
  revenue: BoardRevenue;
  wholeMine: boolean;
  className?: string;
}) => {
  const { t } = useTranslation();
  return (
    <section className={`${tile.tile} ${tile.panel} ${className ?? ''}`} data-testid="board-revenue">
      <h2 className={tile.heading}>
        {t('board.revenue.title')}
        {!wholeMine && <span className={tile.headingNote}>{t('board.revenue.wholeMine')}</span>}
      </h2>
      <div className={styles.days}>
        <Day
          label={t('board.revenue.today')}
          day={revenue.today}
          revenue={revenue}
          testId="board-revenue-today"
        />
        <Day
          label={t('board.revenue.yesterday')}
          day={revenue.yesterday}
          revenue={revenue}
          testId="board-revenue-yesterday"
        />
      </div>
    </section>
  );
};
