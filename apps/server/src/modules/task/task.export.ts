import { Readable } from 'node:stream';
import {
  type Language,
  type SharedMessageKey,
  type TaskItem,
  type TaskRun,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { csvLine, dateInZone, formatInZone, roundCell } from '../../lib/export-cells.js';
import type { SessionUser } from '../auth/auth.service.js';
import type { FileDownload } from '../handler.js';
import { UserRepository } from '../user/user.repository.js';
import type { TaskScope, TaskType } from './task.service.js';
import { type Cell, xlsx } from './xlsx.js';

type Format = 'csv' | 'xlsx';

/** `2025-01-01 08:00:00` in the account's time zone; empty when it has not happened. */
const formatTime = (ms: number | null, zone: string): string | null =>
  ms === null ? null : formatInZone(ms, zone);

interface Columns<T> {
  header: SharedMessageKey[];
  row: (item: T, lang: Language, zone: string) => Cell[];
}

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

/**
 * A CSV (UTF-8 with BOM, localized header, streamed by page) or XLSX (built in memory) file.
 * `rows` checks scope on its first step, so a foreign id fails before the first byte.
 */
const exportFile = async <T>(
  app: FastifyInstance,
  user: SessionUser,
  lang: Language,
  format: Format,
  name: string,
  sheet: SharedMessageKey,
  columns: Columns<T>,
  rows: AsyncGenerator<T[]>,
): Promise<FileDownload> => {
  const first = await rows.next();
  const zone = (await new UserRepository(app.db).timeZone(user.id)) ?? 'UTC+0';
  const header = columns.header.map((key) => translate(lang, key));
  const date = dateInZone(app.clock(), zone);
  if (format === 'xlsx') {
    const table: Cell[][] = [header];
    if (!first.done) for (const item of first.value) table.push(columns.row(item, lang, zone));
    for await (const page of rows) for (const item of page) table.push(columns.row(item, lang, zone));
    return {
      filename: `${name}-${date}.xlsx`,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      body: Readable.from([xlsx(translate(lang, sheet), table)]),
    };
  }
  async function* csv() {
    yield `\uFEFF${csvLine(header)}`;
    if (!first.done) yield first.value.map((item) => csvLine(columns.row(item, lang, zone))).join('');
    for await (const page of rows) yield page.map((item) => csvLine(columns.row(item, lang, zone))).join('');
  }
  return {
    filename: `${name}-${date}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(csv()),
  };
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
    format: Format;
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
  q: { area_id: number; run_id?: number | undefined; task_id?: number | undefined; format: Format },
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
