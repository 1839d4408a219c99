import type { TestBoard } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import { showHashrate, showPercent, showTemperature, showText } from '../../../lib/values';
import styles from '../MinerBoardPage.module.css';
import { type CardAnchor, cardPlace } from './MinerCard';

export type TestMiner = TestBoard['miners'][number];

/**
 * A miner's test beside its cell: which miner (SN, worker, model), the verdict and what failed,
 * its average hashrate against theoretical, its hottest chip and the share of the window it reported.
 */
export const TestMinerCard = ({ miner, anchor }: { miner: TestMiner; anchor: CardAnchor }) => {
  const { t } = useTranslation();
  const verdict =
    miner.verdict === 'fail'
      ? t('board.test.failedOn', {
          criteria: miner.failed
            .map((c) => (c === 'hashrate' ? t('board.test.lowHashrate') : t('board.test.tooHot')))
            .join(', '),
        })
      : miner.verdict === 'pass'
        ? t('board.test.pass')
        : t('board.test.noData');
  const rows: [string, string][] = [
    [t('device.miner.worker'), showText(miner.worker)],
    [t('device.miner.model'), showText(miner.model)],
    [t('board.test.verdict'), verdict],
    [
      t('board.test.avgHashrate'),
      `${showHashrate(miner.hashrate)} / ${showHashrate(miner.theoretical)}${
        miner.ratio === null ? '' : ` (${showPercent(miner.ratio)})`
      }`,
    ],
    [t('board.test.hottestChip'), showTemperature(miner.chip_max_temp)],
    [t('board.test.reported'), showPercent(miner.reported * 100)],
  ];
  return (
    <div className={styles.card} style={cardPlace(anchor)} role="tooltip" data-testid="miner-board-popover">
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
