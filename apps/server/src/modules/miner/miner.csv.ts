import { Readable } from 'node:stream';
import {
  faultLabel,
  isNoData,
  type Language,
  type MinerExportQuery,
  type MinerListItem,
  type MinerSortField,
  minerSortFields,
  type SharedMessageKey,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { csvLine, dateInZone, roundCell } from '../../lib/export-cells.js';
import type { SessionUser } from '../auth/auth.service.js';
import type { FileDownload } from '../handler.js';
import { UserRepository } from '../user/user.repository.js';

/** Every column a user can sort the list by, except the internal id and update time. */
const columns: readonly (MinerSortField & keyof MinerListItem)[] = minerSortFields.filter(
  (field) => field !== 'id' && field !== 'updated_at',
);

/** Measured columns, chip temperatures to power (their headers name the unit): rounded to two decimals. */
const measured = new Set<MinerSortField>(
  minerSortFields.slice(minerSortFields.indexOf('chip_avg_temp'), minerSortFields.indexOf('power_w') + 1),
);

/** One miner's cell of a column, in the reader's language: words for codes, -999 as empty. */
const cellOf = (
  m: MinerListItem,
  column: (typeof columns)[number],
  lang: Language,
): string | number | null => {
  switch (column) {
    case 'status':
      return translate(lang, `status.${m.status}`);
    case 'mode':
      return translate(lang, `mode.${m.mode}`);
    case 'fault':
      return m.fault ? faultLabel(lang, m.fault) : '';
  }
  const value = m[column];
  if (typeof value !== 'number') return value;
  if (isNoData(value)) return null;
  return measured.has(column) ? roundCell(value) : value;
};

/**
 * The miners of the current filter and sort as a CSV download (localized header, codes in words, UTF-8 with BOM for spreadsheets, named with the reader's date). Scope is checked before the first byte; rows stream in pages.
 */
export const minerExportFile = async (
  app: FastifyInstance,
  user: SessionUser,
  q: MinerExportQuery,
  lang: Language,
): Promise<FileDownload> => {
  await app.areas.requireAccess(user, q.area_id);
  const rows = app.miners.exportRows(user, q);
  const zone = await new UserRepository(app.db).timeZone(user.id);
  const header = csvLine(columns.map((c) => translate(lang, `field.${c}` as SharedMessageKey)));
  async function* csv() {
    yield `\uFEFF${header}`;
    for await (const page of rows) {
      yield page.map((m) => csvLine(columns.map((c) => cellOf(m, c, lang)))).join('');
    }
  }
  return {
    filename: `miners-${q.area_id}-${dateInZone(app.clock(), zone)}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: Readable.from(csv()),
  };
};
