import { useTranslation } from 'react-i18next';
import { showHashrate, showPercent, showPowerKw, showTemperature, showText } from '../../../lib/values';
import styles from '../MinerBoardPage.module.css';
import { type BoardMiner, minerHashrateRatio } from '../miner-colours';

/** The cell a card is about, where it is on the screen (viewport px). */
export interface CardAnchor {
  minerId: number;
  rect: { left: number; top: number; right: number; bottom: number };
}

/** Where a card goes: beside its cell, on the side with more room, so it stays on the screen. */
export const cardPlace = ({ rect }: CardAnchor) => {
  const width = window.innerWidth;
  const height = window.innerHeight;
  return {
    ...((rect.left + rect.right) / 2 > width / 2
      ? { right: width - rect.left + 8 }
      : { left: rect.right + 8 }),
    ...((rect.top + rect.bottom) / 2 > height / 2 ? { bottom: height - rect.bottom } : { top: rect.top }),
  };
};

/** W → kW for the power shown; -999 stays no data. */
const kw = (watts: number) => (watts === -999 ? -999 : watts / 1000);

/**
 * A miner's details beside its cell: which miner it is (SN, worker, IP, model), its state and the
 * readings a board can colour by. It opens on the side of the cell with more room, so it stays on
 * the screen wherever the cell is.
 */
export const MinerCard = ({ miner, anchor }: { miner: BoardMiner; anchor: CardAnchor }) => {
  const { t } = useTranslation();
  const place = cardPlace(anchor);
  const ratio = minerHashrateRatio(miner);
  const state = !miner.online
    ? t('common.status.offline')
    : miner.fault
      ? t('board.miners.faultCode', { code: miner.fault })
      : t('common.status.online');
  const rows: [string, string][] = [
    [t('device.miner.worker'), showText(miner.worker)],
    [t('device.miner.ip'), showText(miner.ip)],
    [t('device.miner.model'), showText(miner.model)],
    [t('common.status.title'), state],
    [t('device.miner.chipMax'), showTemperature(miner.chip_max_temp)],
    [
      t('board.miners.hashrate'),
      `${showHashrate(miner.hashrate)} / ${showHashrate(miner.theoretical > 0 ? miner.theoretical : null)}${
        ratio === null ? '' : ` (${showPercent(ratio)})`
      }`,
    ],
    [t('device.miner.power'), showPowerKw(kw(miner.power_w))],
  ];
  return (
    <div className={styles.card} style={place} role="tooltip" data-testid="miner-board-popover">
      <div className={styles.cardTitle}>
        <span className={styles.cardLabel}>{t('device.miner.sn')}</span> {showText(miner.sn)}
      </div>
      <dl className={styles.cardRows}>
        {rows.map(([label, value]) => (
          <div key={label} className={styles.cardRow}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
};
