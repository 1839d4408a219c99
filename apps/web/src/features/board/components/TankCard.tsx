import type { TankBoard } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import { showLevel, showPercent, showPlain, showTemperature } from '../../../lib/values';
import styles from '../TankBoardPage.module.css';
import {
  type BoardTank,
  driveState,
  type ReadingState,
  readingState,
  type TankReading,
} from '../tank-limits';
import { OnlineDot } from './OnlineDot';

const readingLabels = {
  oil_in_temp: 'board.tank.oilIn',
  oil_out_temp: 'board.tank.oilOut',
  liquid_level: 'board.tank.level',
} as const;

/**
 * Drives' loads in % of full output: one figure, or the lowest to the highest (a stopped fan shows
 * as the low end); a dash without a reading.
 */
const showLoads = (drives: readonly { percent: number | null }[]): string => {
  const loads = drives.map((d) => d.percent).filter((p): p is number => p !== null);
  if (loads.length === 0) return showPercent(null);
  const low = Math.min(...loads);
  const high = Math.max(...loads);
  return low === high ? showPercent(low) : `${showPlain(low)}–${showPercent(high)}`;
};

/** One reading's row: label, value coloured by its state, and the threshold it is held to. */
const ReadingRow = ({
  tank,
  reading,
  limits,
}: {
  tank: BoardTank;
  reading: TankReading;
  limits: TankBoard['limits'][TankReading];
}) => {
  const { t } = useTranslation();
  const state: ReadingState = readingState(tank, reading, limits);
  const show = reading === 'liquid_level' ? showLevel : showTemperature;
  const limit =
    state.limit === null
      ? t('board.tank.noRule')
      : reading === 'liquid_level'
        ? t('board.tank.alertBelow', { value: show(state.limit) })
        : t('board.tank.alertAbove', { value: show(state.limit) });
  return (
    <div className={styles.row} data-testid={`tank-${tank.id}-${reading}`} data-band={state.band}>
      <span className={styles.label}>{t(readingLabels[reading])}</span>
      <span className={styles.value}>{show(tank[reading])}</span>
      <span className={styles.limit}>{limit}</span>
    </div>
  );
};

/** The oil pump's or the fans' row: loads, coloured by an open fault alert, and whether a rule watches. */
const DriveRow = ({ tank, kind, watched }: { tank: BoardTank; kind: 'pump' | 'fans'; watched: boolean }) => {
  const { t } = useTranslation();
  const drives = kind === 'pump' ? [tank.oil_pump] : tank.fans;
  const metric = kind === 'pump' ? 'tank_pump_fault' : 'fan_fault';
  const band = driveState(
    tank,
    metric,
    watched,
    drives.map((d) => d.value),
  );
  const faulty = tank.alerts.some((a) => a.metric === metric);
  const note = faulty
    ? t('board.tank.driveFault')
    : watched
      ? t('board.tank.driveWatched')
      : t('board.tank.noRule');
  return (
    <div className={styles.row} data-testid={`tank-${tank.id}-${kind}`} data-band={band}>
      <span className={styles.label}>{kind === 'pump' ? t('board.tank.pump') : t('board.tank.fans')}</span>
      <span className={styles.value}>{showLoads(drives)}</span>
      <span className={styles.limit}>{note}</span>
    </div>
  );
};

/**
 * One tank on the wall: its name and FBOX, online state and control mode, the oil temperatures and
 * liquid level against the alert rules' thresholds, the oil pump's and fans' loads. An offline tank
 * is dimmed and says so (its figures are the last it reported).
 */
export const TankCard = ({ tank, fbox, data }: { tank: BoardTank; fbox: string; data: TankBoard }) => {
  const { t } = useTranslation();
  const alarmed = tank.alerts[0];
  return (
    <section
      className={`${styles.card} ${tank.online ? '' : styles.offlineCard}`}
      data-testid={`tank-card-${tank.id}`}
      data-online={tank.online}
      data-alert={alarmed ? alarmed.level : undefined}
    >
      <header className={styles.cardHeader}>
        <OnlineDot online={tank.online} />
        <span className={styles.tankName}>{tank.name}</span>
        <span className={styles.fboxName}>{fbox}</span>
        {!tank.online && <span className={styles.tag}>{t('common.status.offline')}</span>}
        {tank.short_circuit && (
          <span className={`${styles.tag} ${styles.danger}`}>{t('board.tank.shortCircuit')}</span>
        )}
        <span className={styles.mode}>
          {tank.control_mode === 'auto' ? t('board.tank.auto') : t('board.tank.manual')}
        </span>
      </header>
      <ReadingRow tank={tank} reading="oil_in_temp" limits={data.limits.oil_in_temp} />
      <ReadingRow tank={tank} reading="oil_out_temp" limits={data.limits.oil_out_temp} />
      <ReadingRow tank={tank} reading="liquid_level" limits={data.limits.liquid_level} />
      <DriveRow tank={tank} kind="pump" watched={data.watched.pump} />
      <DriveRow tank={tank} kind="fans" watched={data.watched.fans} />
    </section>
  );
};
