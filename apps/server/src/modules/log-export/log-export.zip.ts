import { Readable } from 'node:stream';
import {
  type Language,
  type MinerLogExport,
  type MinerLogItemState,
  type SharedMessageKey,
  translate,
} from '@fbox/contracts';
import { ZipFile } from 'yazl';
import { reasonText } from './log-export.service.js';

/** A miner of the export as its zip lists it. */
export interface ZipEntry {
  sn: string;
  fbox_name: string;
  state: MinerLogItemState;
  command_id: string | null;
  error: string | null;
  bytes: number;
}

/** A name safe in a zip path on every system: no separators, controls or reserved characters. */
const safeName = (text: string, fallback: string): string => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const cleaned = text.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_').replace(/^[.\s]+|[.\s]+$/g, '');
  return cleaned.slice(0, 100) || fallback;
};

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;

/**
 * The export's zip, built as it is sent: `export.txt` (the window and every miner's outcome) and
 * `<FBOX>/<SN>.log` for each miner whose log arrived, read from the database one miner at a time,
 * so a large export never sits in memory.
 */
export const logExportZip = (
  row: MinerLogExport,
  entries: ZipEntry[],
  partsOf: (commandId: string) => Promise<string[]>,
  lang: Language,
): Readable => {
  const t = (key: SharedMessageKey, params?: Record<string, string | number>) => translate(lang, key, params);
  const zip = new ZipFile();
  const mtime = new Date(row.updated_at);
  const summary = [
    t('logExport.summaryTitle', { id: row.id }),
    `${t('logExport.summaryWindow')}: ${utc(row.from)} – ${utc(row.to)}`,
    t('logExport.summaryMiners', { total: row.total, done: row.done, failed: row.failed }),
    '',
    t('logExport.summaryColumns'),
    ...entries.map((e) =>
      [
        e.fbox_name,
        e.sn,
        t(`logExport.state.${e.state}`),
        String(e.bytes),
        reasonText(lang, e.error) ?? '',
      ].join('\t'),
    ),
    '',
  ].join('\n');
  zip.addBuffer(Buffer.from(summary, 'utf8'), 'export.txt', { mtime });
  const used = new Set<string>();
  for (const entry of entries) {
    if (entry.state !== 'done' || entry.command_id === null) continue;
    const base = `${safeName(entry.fbox_name, 'fbox')}/${safeName(entry.sn, 'miner')}`;
    let path = `${base}.log`;
    for (let n = 2; used.has(path); n++) path = `${base}-${n}.log`;
    used.add(path);
    const commandId = entry.command_id;
    // Read when the zip reaches this entry, not before.
    const log = Readable.from(
      (async function* () {
        for (const part of await partsOf(commandId)) yield Buffer.from(part, 'utf8');
      })(),
    );
    zip.addReadStream(log, path, { mtime });
  }
  zip.end();
  return zip.outputStream as Readable;
};
