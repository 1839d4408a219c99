import { alertLevels, type DataBoard, isNoData } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import { showEnergy, showHashrate, showPercent, showPowerKw } from '../../../lib/values';
import { levelColors } from '../../alarm';
import styles from '../DataBoardPage.module.css';
import { BoardTile } from './BoardTile';

/** Realtime ÷ theoretical hashrate in percent; none without a theoretical hashrate to compare with. */
export const hashrateRatio = (hashrate: number, theoretical: number): number | null =>
  isNoData(hashrate) || isNoData(theoretical) || theoretical <= 0 ? null : (hashrate / theoretical) * 100;

const levelKeys = { 1: 'alertLevel.1', 2: 'alertLevel.2', 3: 'alertLevel.3' } as const;

/** "online / offline", each in its colour. */
const Counts = ({ online, offline }: { online: number; offline: number }) => (
  <>
    <span className={styles.online}>{online}</span>
    <span className={styles.slash}>/</span>
    <span className={styles.offline}>{offline}</span>
  </>
);

/**
 * The board's key figures, as read (a missing reading is a dash, a theoretical hashrate no miner
 * reports is not shown as 0): hashrate against theoretical, online rate, power, devices online and
 * offline, today's energy and the open alerts by level.
 */
export const DataBoardKpis = ({ data }: { data: DataBoard }) => {
  const { t } = useTranslation();
  const ratio = hashrateRatio(data.hashrate, data.theoretical);
  return (
    <div className={styles.kpis}>
      <BoardTile
        label={t('board.data.hashrate')}
        note={ratio === null ? undefined : t('board.data.ofTheoretical', { ratio: showPercent(ratio) })}
        testId="board-kpi-hashrate"
      >
        {showHashrate(data.hashrate)}
      </BoardTile>
      <BoardTile label={t('board.data.theoretical')} testId="board-kpi-theoretical">
        {showHashrate(data.theoretical > 0 ? data.theoretical : null)}
      </BoardTile>
      <BoardTile label={t('board.data.onlineRate')} testId="board-kpi-online-rate">
        {showPercent(data.online_rate === null ? null : data.online_rate * 100)}
      </BoardTile>
      <BoardTile label={t('board.data.power')} testId="board-kpi-power">
        {showPowerKw(data.power_kw)}
      </BoardTile>
      <BoardTile
        label={t('board.data.miners')}
        note={t('board.data.onlineOffline')}
        testId="board-kpi-miners"
      >
        <Counts {...data.miner} />
      </BoardTile>
      <BoardTile
        label={t('board.data.fboxes')}
        note={t('board.data.onlineOffline')}
        testId="board-kpi-fboxes"
      >
        <Counts {...data.fbox} />
      </BoardTile>
      <BoardTile label={t('board.data.energyToday')} testId="board-kpi-energy">
        {showEnergy(data.today_energy_kwh)}
      </BoardTile>
      <BoardTile label={t('board.data.openAlerts')} testId="board-kpi-alerts">
        <span className={styles.levels}>
          {alertLevels.map((level) => (
            <span key={level} className={styles.level} data-testid={`board-alerts-${level}`}>
              <span style={{ color: levelColors[level] }}>{data.alerts[level]}</span>
              <span className={styles.levelName}>{t(levelKeys[level])}</span>
            </span>
          ))}
        </span>
      </BoardTile>
    </div>
  );
};
