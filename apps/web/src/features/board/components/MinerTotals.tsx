import { isNoData } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import { showHashrate, showPercent, showTemperature } from '../../../lib/values';
import styles from '../MinerBoardPage.module.css';
import type { BoardMiner } from '../miner-colours';
import { BoardTile } from './BoardTile';

/** The big screen's totals over the board's miners; only online miners' readings count (as the cells). */
export const minerTotals = (miners: readonly BoardMiner[]) => {
  const online = miners.filter((miner) => miner.online);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const readings = (pick: (miner: BoardMiner) => number) =>
    online.map(pick).filter((value) => !isNoData(value) && value >= 0);
  const temperatures = online.map((miner) => miner.chip_max_temp).filter((value) => !isNoData(value));
  return {
    online: online.length,
    total: miners.length,
    hashrate: sum(readings((miner) => miner.hashrate)),
    theoretical: sum(readings((miner) => miner.theoretical)),
    faults: online.filter((miner) => miner.fault !== '').length,
    hottest: temperatures.length > 0 ? Math.max(...temperatures) : null,
  };
};

/** A wall's headline figures: miners online, hashrate against theoretical, faults, the hottest chip. */
export const MinerTotals = ({ miners }: { miners: readonly BoardMiner[] }) => {
  const { t } = useTranslation();
  const totals = minerTotals(miners);
  const ratio = totals.theoretical > 0 ? (totals.hashrate / totals.theoretical) * 100 : null;
  return (
    <div className={styles.totals}>
      <BoardTile label={t('board.miners.minersOnline')} testId="miner-total-online">
        <span className={styles.online}>{totals.online}</span>
        <span className={styles.slash}>/</span>
        {totals.total}
      </BoardTile>
      <BoardTile
        label={t('board.data.hashrate')}
        note={
          ratio === null
            ? undefined
            : t('board.miners.ofTheoretical', {
                theoretical: showHashrate(totals.theoretical),
                ratio: showPercent(ratio),
              })
        }
        testId="miner-total-hashrate"
      >
        {showHashrate(totals.hashrate)}
      </BoardTile>
      <BoardTile label={t('board.miners.withFault')} testId="miner-total-faults">
        <span className={totals.faults > 0 ? styles.faulty : undefined}>{totals.faults}</span>
      </BoardTile>
      <BoardTile label={t('board.miners.hottestChip')} testId="miner-total-hottest">
        {showTemperature(totals.hottest)}
      </BoardTile>
    </div>
  );
};
