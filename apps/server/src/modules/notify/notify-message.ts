import {
  type AlertMetric,
  type AlertTarget,
  faultLabel,
  type Language,
  type SharedMessageKey,
  timeZoneOffsetMinutes,
  translate,
} from '@fbox/contracts';
import type { OutgoingMessage } from './channels/channel.js';

/** What a message says about one alert. */
export interface AlertFacts {
  id: number;
  area_id: number;
  metric: AlertMetric;
  level: number;
  device_kind: AlertTarget;
  device_name: string;
  value: number | null;
  detail: string;
  started_at: number;
  ended_at: number | null;
  mine_name: string;
  fbox_name: string;
}

/** The reader: their language and time zone (`UTC+8`). */
export interface Reader {
  language: Language;
  timeZone: string;
}

const units: Partial<Record<AlertMetric, string>> = {
  fbox_temp_high: ' °C',
  fbox_humidity_high: ' %',
  fbox_voltage_out_of_range: ' V',
  oil_out_temp_high: ' °C',
  oil_in_temp_high: ' °C',
  liquid_level_low: ' %',
  chip_temp_high: ' °C',
  hashrate_low_pct: ' %',
};

/** `2025-01-01 08:00:00 UTC+8`: the time in the reader's zone, named. */
export const readerTime = (ms: number, timeZone: string): string => {
  const shifted = new Date(ms + timeZoneOffsetMinutes(timeZone) * 60_000).toISOString();
  return `${shifted.slice(0, 10)} ${shifted.slice(11, 19)} ${timeZone || 'UTC+0'}`;
};

const valueText = (lang: Language, alert: AlertFacts): string | null => {
  if (alert.value !== null) return `${Math.round(alert.value * 100) / 100}${units[alert.metric] ?? ''}`;
  if (alert.detail) return alert.metric === 'miner_fault' ? faultLabel(lang, alert.detail) : alert.detail;
  return null;
};

const shownDevices = 10;

/**
 * The message of one group of alerts (one, or many of one rule on one FBOX that changed together),
 * in the reader's language and time zone, with a link to the realtime page (fired) or the history
 * page (recovered).
 */
export const alertMessage = (
  reader: Reader,
  kind: 'fired' | 'recovered',
  alerts: AlertFacts[],
  publicUrl: string,
): OutgoingMessage => {
  const lang = reader.language;
  const t = (key: SharedMessageKey, params?: Record<string, string | number>) => translate(lang, key, params);
  const first = alerts[0]!;
  const params = {
    level: t(`alertLevel.${first.level}` as SharedMessageKey),
    metric: t(`alertMetric.${first.metric}` as SharedMessageKey),
    mine: first.mine_name,
    fbox: first.fbox_name,
    device: first.device_name,
    count: alerts.length,
    targets: t(`notify.targets.${first.device_kind}` as SharedMessageKey),
  };
  const grouped = alerts.length > 1;
  const subject = grouped
    ? t(kind === 'fired' ? 'notify.groupFired.subject' : 'notify.groupRecovered.subject', params)
    : t(kind === 'fired' ? 'notify.fired.subject' : 'notify.recovered.subject', params);
  const lines = [
    t('notify.line.rule', params),
    t('notify.line.level', params),
    t('notify.line.mine', params),
  ];
  if (first.device_kind !== 'fbox' || grouped) lines.push(t('notify.line.fbox', params));
  if (grouped) {
    const names = alerts.slice(0, shownDevices).map((a) => a.device_name);
    lines.push(t('notify.line.devices', { devices: names.join(', ') }));
    if (alerts.length > shownDevices)
      lines.push(t('notify.line.more', { count: alerts.length - shownDevices }));
  } else {
    lines.push(t('notify.line.device', params));
    const value = valueText(lang, first);
    if (value !== null) lines.push(t('notify.line.value', { value }));
  }
  lines.push(
    t('notify.line.since', {
      time: readerTime(Math.min(...alerts.map((a) => a.started_at)), reader.timeZone),
    }),
  );
  if (kind === 'recovered') {
    const ended = Math.max(...alerts.map((a) => a.ended_at ?? a.started_at));
    lines.push(t('notify.line.recovered', { time: readerTime(ended, reader.timeZone) }));
  }
  const page = kind === 'fired' ? 'currentAlarm' : 'historyAlarm';
  const link = `${publicUrl}/alarm/${page}?area_id=${first.area_id}`;
  return { subject, text: lines.join('\n'), link, level: first.level };
};

/** The message of a test send. */
export const testMessage = (reader: Reader, username: string, publicUrl: string): OutgoingMessage => ({
  subject: translate(reader.language, 'notify.test.subject'),
  text: translate(reader.language, 'notify.test.body', { user: username }),
  link: publicUrl,
  level: null,
});
