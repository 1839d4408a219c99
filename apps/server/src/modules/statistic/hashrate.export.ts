import {
  type HashrateOverview,
  type HashrateOverviewExportQuery,
  type HashrateStat,
  type Language,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { formatInZone, roundCell } from '../../lib/export-cells.js';
import { jsonValue } from '../../lib/json-text.js';
import type { SessionUser } from '../auth/auth.service.js';
import { type Columns, exportFile } from '../table-export.js';

/** One line of the file: the mine's total or a series, in one bucket. */
type Line = HashrateStat & { bucket_ts: number; series: string };

const pct = (v: number | null) => (v === null ? null : roundCell(v * 100, 2));
const ths = (v: number | null) => (v === null ? null : roundCell(v, 3));

const columns: Columns<Line> = {
  header: [
    'hashrateExport.time',
    'hashrateExport.series',
    'hashrateExport.hashrate',
    'hashrateExport.theoretical',
    'hashrateExport.ratio',
    'hashrateExport.onlineRate',
    'hashrateExport.reachable',
    'hashrateExport.hashing',
  ],
  row: (l, _lang, zone) => [
    formatInZone(l.bucket_ts, zone),
    l.series,
    ths(l.hashrate),
    ths(l.theoretical),
    pct(l.ratio),
    pct(l.online_rate),
    pct(l.reachable_uptime),
    pct(l.hashing_uptime),
  ],
};

/** A series' name as the page shows it (miners in no group, a miner without a model). */
export const seriesName = (lang: Language, split: HashrateOverview['split'], key: string, name: string) => {
  if (split === 'group' && key === '0') return translate(lang, 'hashrateExport.noGroup');
  if (split === 'model' && key === '') return translate(lang, 'hashrateExport.unknownModel');
  return name || `#${key}`;
};

/** The page's table: per bucket, the mine's total then each series, as CSV or XLSX. */
export const hashrateExportFile = (
  app: FastifyInstance,
  user: SessionUser,
  q: HashrateOverviewExportQuery,
  lang: Language,
) => {
  async function* lines(): AsyncGenerator<Line[]> {
    const o = await app.hashrate.overview(user, q);
    const names = new Map(o.series.map((s) => [s.key, seriesName(lang, o.split, s.key, s.name)]));
    const out: Line[] = [];
    const rows = jsonValue(o.rows);
    for (const t of jsonValue(o.totals)) {
      out.push({ ...t, series: translate(lang, 'hashrateExport.total') });
      for (const r of rows)
        if (r.bucket_ts === t.bucket_ts) out.push({ ...r, series: names.get(r.key) ?? `#${r.key}` });
    }
    yield out;
  }
  return exportFile(
    app,
    user,
    lang,
    q.format,
    `hashrate-${q.area_id}`,
    'hashrateExport.sheet',
    columns,
    lines(),
  );
};
