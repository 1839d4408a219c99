import { Readable } from 'node:stream';
import {
  type Language,
  type OplogExportQuery,
  sharedMessages,
  timeZoneOffsetMinutes,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '../auth/auth.service.js';
import type { FileDownload } from '../handler.js';
import { csvCell } from '../miner/miner.csv.js';
import { UserRepository } from '../user/user.repository.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:mm:ss` of an instant in a `UTC±N` zone. */
export const formatInZone = (ms: number, zone: string): string => {
  const d = new Date(ms + timeZoneOffsetMinutes(zone) * 60_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
};

/** An action's label in a language; the endpoint name when no label exists yet. */
export const actionLabel = (lang: Language, action: string): string =>
  (sharedMessages[lang] as Record<string, string>)[`oplog.action.${action}`] ?? action;

const line = (cells: (string | number | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * The reader's records of the current filter as CSV (localized header and labels, times in the
 * user's time zone, UTF-8 with BOM). Scope and filters are checked before the first byte.
 */
export const oplogExportFile = async (
  app: FastifyInstance,
  user: SessionUser,
  q: OplogExportQuery,
  lang: Language,
): Promise<FileDownload> => {
  const pages = await app.oplog.exportPages(user, q);
  const zone = (await new UserRepository(app.db).timeZone(user.id)) ?? 'UTC+0';
  const header = line([
    translate(lang, 'oplog.csv.time', { zone }),
    translate(lang, 'oplog.csv.user'),
    translate(lang, 'oplog.csv.ip'),
    translate(lang, 'oplog.csv.mine'),
    translate(lang, 'oplog.csv.action'),
    translate(lang, 'oplog.csv.target'),
    translate(lang, 'oplog.csv.params'),
    translate(lang, 'oplog.csv.outcome'),
    translate(lang, 'oplog.csv.message'),
  ]);
  async function* csv() {
    yield `\uFEFF${header}`;
    for await (const rows of pages) {
      yield rows
        .map((row) => {
          const entry = app.oplog.entryOf(row, lang);
          return line([
            formatInZone(entry.at, zone),
            entry.username,
            entry.ip,
            entry.area_name ?? (entry.area_id === null ? '' : `#${entry.area_id}`),
            actionLabel(lang, entry.action),
            entry.target,
            row.params,
            translate(lang, entry.outcome === 'success' ? 'oplog.outcome.success' : 'oplog.outcome.failed'),
            entry.message,
          ]);
        })
        .join('');
    }
  }
  const date = formatInZone(app.clock(), zone).slice(0, 10);
  return {
    filename: `operation-log-${date}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(csv()),
  };
};
