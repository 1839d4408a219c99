import { Readable } from 'node:stream';
import {
  type Language,
  type MinerExportQuery,
  type MinerListItem,
  type MinerSortField,
  minerSortFields,
  type SharedMessageKey,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '../auth/auth.service.js';
import type { FileDownload } from '../handler.js';

/** Every column a user can sort the list by, except the internal id and update time. */
const columns: readonly (MinerSortField & keyof MinerListItem)[] = minerSortFields.filter(
  (field) => field !== 'id' && field !== 'updated_at',
);

/**
 * One CSV cell: quoted when needed; text starting with a formula character is prefixed with `'`
 * so a spreadsheet does not run it (CSV injection). Numbers are written as they are.
 */
export const csvCell = (value: string | number | null): string => {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

const line = (cells: (string | number | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * The miners of the current filter and sort as a CSV download (localized header, UTF-8 with BOM for
 * spreadsheets). Scope is checked before the first byte; rows stream in pages.
 */
export const minerExportFile = async (
  app: FastifyInstance,
  user: SessionUser,
  q: MinerExportQuery,
  lang: Language,
): Promise<FileDownload> => {
  await app.areas.requireAccess(user, q.area_id);
  const rows = app.miners.exportRows(user, q);
  const header = line(columns.map((c) => translate(lang, `field.${c}` as SharedMessageKey)));
  async function* csv() {
    yield `\uFEFF${header}`;
    for await (const page of rows) {
      yield page
        .map((m) =>
          line(
            columns.map((c) =>
              c === 'status' ? translate(lang, `status.${m.status}`) : (m[c] as string | number | null),
            ),
          ),
        )
        .join('');
    }
  }
  const date = new Date(app.clock()).toISOString().slice(0, 10);
  return {
    filename: `miners-${q.area_id}-${date}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(csv()),
  };
};
