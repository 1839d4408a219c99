import { type Language, type TaskItem, type TaskRun, translate } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { formatInZone, roundCell } from '../../lib/export-cells.js';
import type { SessionUser } from '../auth/auth.service.js';
import { type Columns, type ExportFormat, exportFile } from '../table-export.js';
import type { TaskScope, TaskType } from './task.service.js';

/** `2025-01-01 08:00:00` in the account's time zone; empty when it has not happened. */
const formatTime = (ms: number | null, zone: string): string | null =>
  ms === null ? null : formatInZone(ms, zone);

const runColumns: Columns<TaskRun> = {
  header: [
    'taskExport.task',
    'taskExport.taskStatus',
    'taskExport.startedAt',
    'taskExport.finishedAt',
    'taskExport.minerCount',
    'taskExport.acknowledged',
    'taskExport.failed',
    'taskExport.pending',
  ],
  row: (r, lang, zone) => [
    r.task_name,
    translate(lang, `taskStatus.${r.task_status}`),
    formatTime(r.started_at, zone),
    formatTime(r.finished_at, zone),
    r.miner_count,
    r.acknowledged_count,
    r.failed_count,
    r.pending_count,
  ],
};

const itemColumns: Columns<TaskItem> = {
  header: [
    'taskExport.time',
    'field.worker',
    'field.sn',
    'field.ip',
    'field.fbox_name',
    'taskExport.action',
    'taskExport.reading',
    'taskExport.result',
    'taskExport.error',
    'taskExport.finishedAt',
    'taskExport.command',
  ],
  row: (i, lang, zone) => [
    formatTime(i.created_at, zone),
    i.worker,
    i.sn,
    i.ip,
    i.fbox_name,
    translate(lang, `taskAction.${i.action}`),
    i.reading === null ? null : roundCell(i.reading),
    translate(lang, `actionStatus.${i.status}`),
    i.error,
    formatTime(i.finished_at, zone),
    i.command_id,
  ],
};

export const historyExportFile = (
  app: FastifyInstance,
  user: SessionUser,
  lang: Language,
  scope: TaskScope,
  q: {
    area_id: number;
    task_id?: number | undefined;
    from?: number | undefined;
    to?: number | undefined;
    format: ExportFormat;
  },
) =>
  exportFile(
    app,
    user,
    lang,
    q.format,
    `${scope.kind === 'temp' ? 'temperature' : `${scope.kind}-reboot`}-history-${q.area_id}`,
    'taskExport.history',
    runColumns,
    app.tasks.historyRows(user, q.area_id, scope, q),
  );

export const itemsExportFile = (
  app: FastifyInstance,
  user: SessionUser,
  lang: Language,
  type: TaskType,
  q: { area_id: number; run_id?: number | undefined; task_id?: number | undefined; format: ExportFormat },
) =>
  exportFile(
    app,
    user,
    lang,
    q.format,
    `${type === 'temp' ? 'temperature' : 'reboot'}-details-${q.run_id !== undefined ? `run-${q.run_id}` : `task-${q.task_id}`}`,
    'taskExport.items',
    itemColumns,
    app.tasks.itemRows(user, q.area_id, type, q),
  );
