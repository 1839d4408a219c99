import { type DataBoard, isNoData } from '@fbox/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeSeriesChart } from '../../../components/charts/TimeSeriesChart';
import { showHashrate, showPowerKw } from '../../../lib/values';
import styles from '../DataBoardPage.module.css';
import tile from './BoardTile.module.css';

/** Chart text in px, sized like the page's viewport-relative text: 1.6 % of the window's height. */
const wallFontSize = () => Math.round(Math.min(40, Math.max(12, window.innerHeight * 0.016)));

const useWallFontSize = () => {
  const [size, setSize] = useState(wallFontSize);
  useEffect(() => {
    const onResize = () => setSize(wallFontSize());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
};

/** A bucket without a reading (-999) is a gap in the line, not a drop to zero. */
const reading = (value: number | null) => (isNoData(value) ? null : value);

/** Hashrate and power of the covered FBOXes over the last 24 hours, hour by hour. */
export const DataBoardCharts = ({ data }: { data: DataBoard }) => {
  const { t } = useTranslation();
  const fontSize = useWallFontSize();
  const { points } = data.series;
  const hashrate = useMemo(
    () => [
      { name: t('board.data.hashrate'), points: points.map((p) => [p.ts, reading(p.hashrate)] as const) },
    ],
    [points, t],
  );
  const power = useMemo(
    () => [{ name: t('board.data.power'), points: points.map((p) => [p.ts, reading(p.power_kw)] as const) }],
    [points, t],
  );
  const chart = { height: '100%', theme: data.board.theme, fontSize, area: true } as const;
  return (
    <div className={styles.charts}>
      <section className={`${tile.tile} ${styles.panel}`}>
        <h2 className={styles.panelTitle}>{t('board.data.hashrate24h')}</h2>
        <div className={styles.chartBody}>
          <TimeSeriesChart {...chart} series={hashrate} format={showHashrate} testId="board-chart-hashrate" />
        </div>
      </section>
      <section className={`${tile.tile} ${styles.panel}`}>
        <h2 className={styles.panelTitle}>{t('board.data.power24h')}</h2>
        <div className={styles.chartBody}>
          <TimeSeriesChart {...chart} series={power} format={showPowerKw} testId="board-chart-power" />
        </div>
      </section>
    </div>
  );
};
