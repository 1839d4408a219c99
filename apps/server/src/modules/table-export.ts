import { Readable } from 'node:stream';
import { type Language, type SharedMessageKey, translate } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { csvLine, dateInZone } from '../lib/export-cells.js';
import { type Cell, xlsx } from '../lib/xlsx.js';
import type { SessionUser } from './auth/auth.service.js';
import type { FileDownload } from './handler.js';
import { UserRepository } from './user/user.repository.js';

export type ExportFormat = 'csv' | 'xlsx';

/** The columns of an export: localized header keys, and each item's cells in the reader's zone. */
export interface Columns<T> {
  header: SharedMessageKey[];
  row: (item: T, lang: Language, zone: string) => Cell[];
}

/**
 * A CSV (UTF-8 with BOM, localized header, streamed by page) or XLSX (built in memory) file.
 * `rows` checks scope on its first step, so a foreign id fails before the first byte.
 */
export const exportFile = async <T>(
  app: FastifyInstance,
  user: SessionUser,
  lang: Language,
  format: ExportFormat,
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
