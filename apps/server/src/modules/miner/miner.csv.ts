import { Readable } from 'node:stream';
import {
  type Language,
  type MinerExportQuery,
  type MinerListItem,
  type SharedMessageKey,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { FileDownload } from '../../http/legacy/handler.js';
import type { SessionUser } from '../auth/auth.service.js';

const columns = [
  'sn',
  'worker',
  'model',
  'brand',
  'pool',
  'pool_address',
  'ip',
  'firmware',
  'fbox_name',
  'tank_name',
  'outlet',
  'status',
  'mode',
  'fault',
  'chip_avg_temp',
  'chip_max_temp',
  'hashrate_theoretical',
  'hashrate_realtime',
  'hashrate_avg',
  'hashrate_24h',
  'power_w',
  'uptime_s',
] as const satisfies readonly (keyof MinerListItem)[];

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
