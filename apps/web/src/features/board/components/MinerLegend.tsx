import type { BoardMetric } from '@fbox/contracts';
import { useTranslation } from 'react-i18next';
import { showPercent, showPowerKw, showTemperature } from '../../../lib/values';
import { metricKeys } from '../board-types';
import styles from '../MinerBoardPage.module.css';
import { chipTempLimits, hashrateLimits, type MinerBand, metricBands, powerLimitsW } from '../miner-colours';

/** The band labels of a metric: the thresholds of `miner-colours`, in the board's units. */
const useBandLabels = (metric: BoardMetric, typicalW: number | null): Partial<Record<MinerBand, string>> => {
  const { t } = useTranslation();
  const below = (value: string) => t('board.legend.below', { value });
  const between = (from: string, to: string) => t('board.legend.between', { from, to });
  const atLeast = (value: string) => t('board.legend.atLeast', { value });
  const noData = t('board.legend.noData');
  switch (metric) {
    case 'status':
      return {
        online: t('common.status.online'),
        fault: t('board.legend.fault'),
        offline: t('common.status.offline'),
      };
    case 'chip_temp': {
      const c = showTemperature;
      return {
        ok: below(c(chipTempLimits.warm)),
        warm: between(c(chipTempLimits.warm), c(chipTempLimits.hot)),
        hot: between(c(chipTempLimits.hot), c(chipTempLimits.critical)),
        critical: atLeast(c(chipTempLimits.critical)),
        none: noData,
      };
    }
    case 'hashrate_ratio': {
      const p = showPercent;
      return {
        full: atLeast(p(hashrateLimits.full)),
        fair: between(p(hashrateLimits.fair), p(hashrateLimits.full)),
        low: between(p(hashrateLimits.low), p(hashrateLimits.fair)),
        poor: below(p(hashrateLimits.low)),
        none: t('board.legend.noRatio'),
      };
    }
    case 'power': {
      if (typicalW === null) return { none: noData };
      const limits = powerLimitsW(typicalW);
      const k = (watts: number) => showPowerKw(watts / 1000);
      return {
        idle: below(k(limits.reduced)),
        reduced: between(k(limits.reduced), k(limits.typical)),
        typical: between(k(limits.typical), k(limits.heavy)),
        heavy: atLeast(k(limits.heavy)),
        none: noData,
      };
    }
  }
};

/**
 * What the cells' colours mean for the board's metric, thresholds included (for power: bands
 * around the board's typical miner, its median, said in kW).
 */
export const MinerLegend = ({ metric, typicalW }: { metric: BoardMetric; typicalW: number | null }) => {
  const { t } = useTranslation();
  const labels = useBandLabels(metric, typicalW);
  return (
    <div className={styles.legend} data-testid="miner-board-legend">
      <span className={styles.legendTitle}>{t(metricKeys[metric])}</span>
      {metricBands[metric].map((band) =>
        labels[band] === undefined ? null : (
          <span key={band} className={styles.legendItem}>
            <span className={styles.swatch} data-colour={band} />
            {labels[band]}
          </span>
        ),
      )}
      {metric === 'power' && typicalW !== null && (
        <span className={styles.legendNote}>
          {t('board.legend.typicalPower', { power: showPowerKw(typicalW / 1000) })}
        </span>
      )}
    </div>
  );
};
