import { Readable } from 'node:stream';
import { type Language, type RevenueDay, type RevenueExportQuery, translate } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { csvLine, dateInZone } from '../../lib/export-cells.js';
import { type Cell, xlsx } from '../../lib/xlsx.js';
import type { SessionUser } from '../auth/auth.service.js';
import type { FileDownload } from '../handler.js';

/**
 * The revenue page's daily table as CSV (UTF-8 with BOM) or XLSX, in the reader's language and zone:
 * the same figures the revenue endpoint answers, one row per local day, units in the header.
 */
export const revenueExportFile = async (
  app: FastifyInstance,
  user: SessionUser,
  q: RevenueExportQuery,
  lang: Language,
): Promise<FileDownload> => {
  const { format, ...query } = q;
  const revenue = await app.revenue.revenue(user, query);
  const { coin, fiat } = revenue.settings;
  const header = [
    translate(lang, 'revenueExport.day'),
    translate(lang, 'revenueExport.source'),
    translate(lang, 'revenueExport.poolCoin', { coin }),
    translate(lang, 'revenueExport.estimatedCoin', { coin }),
    translate(lang, 'revenueExport.coin', { coin }),
    translate(lang, 'revenueExport.minerHashrate'),
    translate(lang, 'revenueExport.fiat', { fiat }),
    translate(lang, 'revenueExport.energy'),
    translate(lang, 'revenueExport.cost', { fiat }),
    translate(lang, 'revenueExport.profit', { fiat }),
  ];
  const row = (d: RevenueDay): Cell[] => [
    d.day,
    translate(lang, `revenueSource.${d.source}`),
    d.pool_coin,
    d.estimated_coin,
    d.coin,
    d.miner_hashrate,
    d.fiat,
    d.energy_kwh,
    d.power_cost,
    d.profit,
  ];
  const name = `revenue-${q.area_id}-${q.from_day}-${q.to_day}-${dateInZone(app.clock(), revenue.time_zone)}`;
  if (format === 'xlsx')
    return {
      filename: `${name}.xlsx`,
      contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      body: Readable.from([xlsx(translate(lang, 'revenueExport.sheet'), [header, ...revenue.days.map(row)])]),
    };
  return {
    filename: `${name}.csv`,
    contentType: 'text/csv; charset=utf-8',
    body: `\uFEFF${csvLine(header)}${revenue.days.map((d) => csvLine(row(d))).join('')}`,
  };
};
