import {
  type AlertHistoryExportQuery,
  type AlertItem,
  faultLabel,
  type Language,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { formatInZone, roundCell } from '../../lib/export-cells.js';
import type { SessionUser } from '../auth/auth.service.js';
import { type Columns, exportFile } from '../table-export.js';

const reading = (value: number | null) => (value === null ? null : roundCell(value, 1));

/** The history's columns: what, where, how bad, readings, when, how long, why it ended, who acknowledged. */
const historyColumns: Columns<AlertItem> = {
  header: [
    'alarmExport.level',
    'alarmExport.rule',
    'alarmExport.target',
    'alarmExport.device',
    'field.fbox_name',
    'alarmExport.value',
    'alarmExport.peak',
    'alarmExport.detail',
    'alarmExport.started',
    'alarmExport.ended',
    'alarmExport.durationSeconds',
    'alarmExport.endReason',
    'alarmExport.ackedBy',
    'alarmExport.ackedAt',
    'alarmExport.ackNote',
  ],
  row: (a, lang, zone) => [
    translate(lang, `alertLevel.${a.level}` as 'alertLevel.1'),
    translate(lang, `alertMetric.${a.metric}`),
    translate(lang, `alertTarget.${a.target}`),
    a.device_name,
    a.fbox_name,
    reading(a.value),
    reading(a.peak_value),
    faultLabel(lang, a.detail),
    formatInZone(a.started_at, zone),
    a.ended_at === null ? null : formatInZone(a.ended_at, zone),
    a.ended_at === null ? null : Math.round((a.ended_at - a.started_at) / 1000),
    a.end_reason === null ? null : translate(lang, `alertEnd.${a.end_reason}`),
    a.acked_by,
    a.acked_at === null ? null : formatInZone(a.acked_at, zone),
    a.ack_note,
  ],
};

/** The mine's alert history for the list's filters, as CSV or XLSX in the reader's language and zone. */
export const alarmHistoryExportFile = (
  app: FastifyInstance,
  user: SessionUser,
  q: AlertHistoryExportQuery,
  lang: Language,
) =>
  exportFile(
    app,
    user,
    lang,
    q.format,
    `alert-history-${q.area_id}`,
    'alarmExport.sheet',
    historyColumns,
    app.alertList.historyRows(user, q),
  );
