import { formatReading, isNoData, limits } from '@fbox/contracts';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import styles from './device.module.css';

/** The scale drawn around the 342–418 V reference band. */
const SCALE_MIN = 300;
const SCALE_MAX = 460;
const position = (volts: number) =>
  `${(Math.min(SCALE_MAX, Math.max(SCALE_MIN, volts)) - SCALE_MIN) / ((SCALE_MAX - SCALE_MIN) / 100)}%`;

/** Whether a phase voltage is inside the reference band of spec §9. */
export const inVoltageBand = (volts: number) =>
  volts >= limits.voltageReferenceMin && volts <= limits.voltageReferenceMax;

/** One phase: a bar with the 342–418 V band marked and the reading; out of band in red. */
export const VoltageBand = ({ phase, volts }: { phase: string; volts: number }) => {
  const { t } = useTranslation();
  const missing = isNoData(volts);
  const ok = !missing && inVoltageBand(volts);
  const bandLeft = position(limits.voltageReferenceMin);
  const bandWidth = `calc(${position(limits.voltageReferenceMax)} - ${bandLeft})`;
  return (
    <div className={styles.voltage} data-testid={`voltage-${phase}`} data-in-band={ok}>
      <Typography.Text strong>{t('device.box.phase', { phase })}</Typography.Text>
      {/* The reading beside the bar says the same in words; the bar is decoration. */}
      <div className={styles.voltageBar} aria-hidden="true">
        <div className={styles.voltageBand} style={{ left: bandLeft, width: bandWidth }} />
        {!missing && (
          <div
            className={ok ? styles.voltageMark : `${styles.voltageMark} ${styles.voltageBad}`}
            style={{ left: position(volts) }}
          />
        )}
      </div>
      <Typography.Text type={missing ? 'secondary' : ok ? undefined : 'danger'}>
        {formatReading(volts, 'V')}
        {!missing && !ok && ` · ${t('device.box.outOfBand')}`}
      </Typography.Text>
    </div>
  );
};

/** The three phases with the band's limits as a legend. */
export const VoltagePanel = ({ volts }: { volts: [number, number, number] }) => {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Text type="secondary">
        {t('device.box.voltageBand', { min: limits.voltageReferenceMin, max: limits.voltageReferenceMax })}
      </Typography.Text>
      <div className={styles.voltages}>
        {(['A', 'B', 'C'] as const).map((phase, i) => (
          <VoltageBand key={phase} phase={phase} volts={volts[i] ?? limits.noData} />
        ))}
      </div>
    </div>
  );
};
