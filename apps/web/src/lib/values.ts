import { formatEnergy, formatHashrate, formatReading, isNoData, splitUptime } from '@fbox/contracts';
import type { TFunction } from 'i18next';

/** The dash shown for -999 and missing readings (spec §9). */
export const NO_DATA = '-';

/**
 * Uptime in seconds as localized days/hours/min/sec ("2 d 3 h 4 min 5 s", "2天3小时4分5秒"); leading
 * zero parts are left out, -999 or a missing value is a dash.
 */
export const formatUptime = (t: TFunction, seconds: number | null | undefined): string => {
  const parts = isNoData(seconds) ? null : splitUptime(seconds);
  if (!parts) return NO_DATA;
  const pieces = [
    parts.days > 0 ? t('common.uptime.days', { count: parts.days }) : '',
    parts.days > 0 || parts.hours > 0 ? t('common.uptime.hours', { count: parts.hours }) : '',
    parts.days > 0 || parts.hours > 0 || parts.minutes > 0
      ? t('common.uptime.minutes', { count: parts.minutes })
      : '',
    t('common.uptime.seconds', { count: parts.seconds }),
  ].filter(Boolean);
  return pieces.join(t('common.uptime.separator'));
};

/** Column renderers for device values: units as stored (DESIGN §6), -999 as a dash. */
export const showHashrate = (ths: number | null | undefined) => formatHashrate(ths);
export const showEnergy = (kwh: number | null | undefined) => formatEnergy(kwh);
export const showTemperature = (celsius: number | null | undefined) => formatReading(celsius, '°C');
export const showPercent = (value: number | null | undefined) => formatReading(value, '%');
export const showPowerKw = (kw: number | null | undefined) => formatReading(kw, 'kW', 2);
export const showPowerW = (w: number | null | undefined) => formatReading(w, 'W', 0);
export const showVoltage = (volts: number | null | undefined) => formatReading(volts, 'V');
export const showPlain = (value: number | null | undefined, digits = 1) => formatReading(value, '', digits);
/** Tank liquid level, percent full (docs/mqtt.md). */
export const showLevel = (percent: number | null | undefined) => formatReading(percent, '%');
/** Water inflow speed of a tank, m/s. */
export const showWaterSpeed = (ms: number | null | undefined) => formatReading(ms, 'm/s', 2);
/** Flow of a hydro box's water loop, m³/h. */
export const showFlowRate = (m3h: number | null | undefined) => formatReading(m3h, 'm³/h');
/** A fan or pump drive output, reported in 0.01 Hz (5000 = 50 Hz), shown in Hz. */
export const showDrive = (centiHz: number | null | undefined) =>
  isNoData(centiHz) ? NO_DATA : formatReading(centiHz / 100, 'Hz');
export const showText = (value: string | null | undefined) => (value ? value : NO_DATA);
