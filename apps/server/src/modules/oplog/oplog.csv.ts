import { Readable } from 'node:stream';
import { type Language, type OplogExportQuery, sharedMessages, translate } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { csvLine, dateInZone, formatInZone } from '../../lib/export-cells.js';
import type { SessionUser } from '../auth/auth.service.js';
import type { FileDownload } from '../handler.js';
import { UserRepository } from '../user/user.repository.js';

/** An action's label in a language; the endpoint name when no label exists yet. */
export const actionLabel = (lang: Language, action: string): string =>
  (sharedMessages[lang] as Record<string, string>)[`oplog.action.${action}`] ?? action;

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
  const header = csvLine([
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
          return csvLine([
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
  return {
    filename: `operation-log-${dateInZone(app.clock(), zone)}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(csv()),
  };
};
