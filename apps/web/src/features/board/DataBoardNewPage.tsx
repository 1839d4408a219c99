import { alertLevels, type DataBoard, isNoData } from '@fbox/contracts';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { TimeSeriesChart } from '../../components/charts/TimeSeriesChart';
import { showEnergy, showHashrate, showPercent, showPowerKw } from '../../lib/values';
import { levelColors } from '../alarm';
import { useDataBoard } from './api';
import { BoardGate, BoardScreen } from './BoardScreen';
import { type BoardAddress, boardAddress } from './board-types';
import { BoardTile } from './components/BoardTile';
import tile from './components/BoardTile.module.css';
import { CameraPanel } from './components/CameraPanel';
import { BoardHeader } from './components/DataBoardHeader';
import { hashrateRatio } from './components/DataBoardKpis';
import { FboxHashrateBars } from './components/FboxHashrateBars';
import { FboxStatusGrid } from './components/FboxStatusGrid';
import { RevenuePanel } from './components/RevenuePanel';
import styles from './DataBoardNewPage.module.css';
import { hashrateTrend } from './data-trend';

const levelKeys = { 1: 'alertLevel.1', 2: 'alertLevel.2', 3: 'alertLevel.3' } as const;

/** Chart text in px from the window's height (1.8 %), as the page's own text. */
const chartFont = () => Math.round(Math.min(44, Math.max(12, window.innerHeight * 0.018)));

const useChartFont = () => {
  const [font, setFont] = useState(chartFont);
  useEffect(() => {
    const onResize = () => setFont(chartFont());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return font;
};

/** "▲ 2.1 % vs 24 h average", in the direction's colour; nothing to compare with: no note. */
const TrendNote = ({ data }: { data: DataBoard }) => {
  const { t } = useTranslation();
  const trend = hashrateTrend(data);
  if (trend === null) return null;
  const direction = trend > 0.05 ? 'up' : trend < -0.05 ? 'down' : 'flat';
  const arrow = direction === 'up' ? '▲' : direction === 'down' ? '▼' : '■';
  return (
    <span className={styles.trend} data-trend={direction} data-testid="board-trend">
      {t('board.dataNew.trend', { arrow, change: showPercent(Math.abs(trend)) })}
    </span>
  );
};

/** The headline row: hashrate with its trend, online rate, power, today's energy, FBOXes online. */
const HeadlineKpis = ({ data }: { data: DataBoard }) => {
  const { t } = useTranslation();
  const ratio = hashrateRatio(data.hashrate, data.theoretical);
  const miners = data.miner.online + data.miner.offline;
  return (
    <div className={styles.kpis}>
      <BoardTile
        big
        label={t('board.data.hashrate')}
        note={<TrendNote data={data} />}
        testId="board-kpi-hashrate"
      >
        {showHashrate(data.hashrate)}
      </BoardTile>
      <BoardTile
        big
        label={t('board.data.onlineRate')}
        note={t('board.dataNew.minersOnline', { online: data.miner.online, total: miners })}
        testId="board-kpi-online-rate"
      >
        {showPercent(data.online_rate === null ? null : data.online_rate * 100)}
      </BoardTile>
      <BoardTile
        big
        label={t('board.data.theoretical')}
        note={ratio === null ? undefined : t('board.data.ofTheoretical', { ratio: showPercent(ratio) })}
        testId="board-kpi-theoretical"
      >
        {showHashrate(data.theoretical > 0 ? data.theoretical : null)}
      </BoardTile>
      <BoardTile big label={t('board.data.power')} testId="board-kpi-power">
        {showPowerKw(data.power_kw)}
      </BoardTile>
      <BoardTile big label={t('board.data.energyToday')} testId="board-kpi-energy">
        {showEnergy(data.today_energy_kwh)}
      </BoardTile>
    </div>
  );
};

/** Hashrate over the last 24 hours, hour by hour (gaps where nothing was reported). */
const HashrateTrendChart = ({ data }: { data: DataBoard }) => {
  const { t } = useTranslation();
  const fontSize = useChartFont();
  const series = useMemo(
    () => [
      {
        name: t('board.data.hashrate'),
        points: data.series.points.map((p) => [p.ts, isNoData(p.hashrate) ? null : p.hashrate] as const),
      },
    ],
    [data.series.points, t],
  );
  return (
    <section className={`${tile.tile} ${styles.panel} ${styles.chart}`}>
      <h2 className={styles.panelTitle}>{t('board.data.hashrate24h')}</h2>
      <div className={styles.chartBody}>
        <TimeSeriesChart
          height="100%"
          theme={data.board.theme}
          fontSize={fontSize}
          area
          series={series}
          format={showHashrate}
          testId="board-chart-hashrate"
        />
      </div>
    </section>
  );
};

/** Open alerts by level, each a large number in its level's colour. */
const AlertLevels = ({ data }: { data: DataBoard }) => {
  const { t } = useTranslation();
  return (
    <section className={`${tile.tile} ${styles.panel} ${styles.alerts}`} data-testid="board-kpi-alerts">
      <h2 className={styles.panelTitle}>{t('board.data.openAlerts')}</h2>
      <div className={styles.levels}>
        {alertLevels.map((level) => (
          <div key={level} className={styles.level} data-testid={`board-alerts-${level}`}>
            <span
              className={styles.levelCount}
              style={{ color: data.alerts[level] > 0 ? levelColors[level] : undefined }}
            >
              {data.alerts[level]}
            </span>
            <span className={styles.levelName}>{t(levelKeys[level])}</span>
          </div>
        ))}
      </div>
    </section>
  );
};

const DataBoardNewView = ({ address }: { address: BoardAddress }) => {
  const board = useDataBoard(address);
  return (
    <BoardGate query={board} named={address.named}>
      {(data) => (
        <div className={styles.layout}>
          <BoardHeader data={data} stale={board.isError} />
          <HeadlineKpis data={data} />
          <HashrateTrendChart data={data} />
          {data.camera ? (
            <div className={styles.alertsColumn}>
              <AlertLevels data={data} />
              <CameraPanel
                camera={data.camera}
                areaId={data.board.area_id}
                kiosk={address.kiosk ?? null}
                className={styles.cameraTile}
              />
            </div>
          ) : (
            <AlertLevels data={data} />
          )}
          <FboxHashrateBars fboxes={data.fboxes} />
          <div className={styles.corner}>
            {data.revenue ? (
              <RevenuePanel revenue={data.revenue} wholeMine={data.board.fbox_ids.length === 0} />
            ) : (
              <FboxStatusGrid fboxes={data.fboxes} />
            )}
          </div>
        </div>
      )}
    </BoardGate>
  );
};

/**
 * The new data board (/dataBoardNew?id=…&area_id=…, or a kiosk link): the data board's figures in
 * a second layout — a big headline row, the hashrate's last 24 hours with its trend, open alerts
 * by level (beside the board's camera tile, when it has one), each FBOX's hashrate as a bar, and the
 * mine's revenue where it has any — kept current by the mine's live feed.
 */
export const DataBoardNewPage = () => {
  const [search] = useSearchParams();
  const address = boardAddress(search);
  return (
    <BoardScreen address={address}>
      <DataBoardNewView address={address} />
    </BoardScreen>
  );
};
