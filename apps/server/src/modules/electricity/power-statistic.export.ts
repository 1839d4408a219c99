import type {
  EnergyBucketName,
  Language,
  PowerStatisticExportQuery,
  PowerStatisticRow,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { formatInZone } from '../../lib/export-cells.js';
import { jsonValue } from '../../lib/json-text.js';
import type { SessionUser } from '../auth/auth.service.js';
import { type Columns, exportFile } from '../table-export.js';

/** A bucket's start as the page's table shows it: `2026-11-25 08:00`, `2026-11-25` or `2026-11`. */
export const periodLabel = (ts: number, bucket: EnergyBucketName, zone: string): string => {
  const text = formatInZone(ts, zone);
  return bucket === 'hour' ? text.slice(0, 16) : bucket === 'day' ? text.slice(0, 10) : text.slice(0, 7);
};

type Row = PowerStatisticRow & { fbox_name: string; bucket: EnergyBucketName };

/** The page's table: period, FBOX, each meter, energy, cost, peak, efficiency, resets. */
const columns: Columns<Row> = {
  header: [
    'powerExport.period',
    'field.fbox_name',
    'powerExport.meter1',
    'powerExport.meter2',
    'powerExport.energy',
    'powerExport.cost',
    'powerExport.peak',
    'powerExport.efficiency',
    'powerExport.resets',
  ],
  row: (r, _lang, zone) => [
    periodLabel(r.bucket_ts, r.bucket, zone),
    r.fbox_name,
    r.meter1_kwh,
    r.meter2_kwh,
    r.energy_kwh,
    r.cost,
    r.peak_kw,
    r.j_per_th,
    r.resets,
  ],
};

/** The power statistic's rows for the page's query, as CSV or XLSX in the reader's language and zone. */
export const powerStatisticExportFile = (
  app: FastifyInstance,
  user: SessionUser,
  q: PowerStatisticExportQuery,
  lang: Language,
) => {
  async function* rows() {
    const { format: _format, ...query } = q;
    const answer = await app.meterEnergy.statistic(user, query);
    const names = new Map(answer.fboxes.map((f) => [f.id, f.name]));
    yield jsonValue(answer.rows).map((r) => ({
      ...r,
      fbox_name: names.get(r.fbox_id) ?? '',
      bucket: answer.bucket,
    }));
  }
  return exportFile(
    app,
    user,
    lang,
    q.format,
    `power-statistic-${q.area_id}`,
    'powerExport.sheet',
    columns,
    rows(),
  );
};
