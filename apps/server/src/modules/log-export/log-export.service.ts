import {
  Code,
  type Language,
  type MinerLogExport,
  type MinerLogExportBody,
  type MinerLogItem,
  type MinerLogItemState,
  minerLogLimits,
  parseRuleMessage,
  type SharedMessageKey,
  sharedEn,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { ApiError, fieldInvalid } from '../../lib/api-error.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound } from '../device-access.js';
import type { FileDownload } from '../handler.js';
import { MinerRepository } from '../miner/miner.repository.js';
import { LogExportRepository, type PickedMiner } from './log-export.repository.js';
import { logExportZip } from './log-export.zip.js';

type LogExportDeps = Pick<FastifyInstance, 'db' | 'dbDialect' | 'clock' | 'areas' | 'config'>;

/** How far ahead of the server's clock a window may start (clocks of browsers drift a little). */
const clockSlackMs = 5 * 60_000;

/**
 * A stored reason in words: ours are shared message keys with `@` in front (and their parameters,
 * as a rule carries them); anything else is the gateway's own text, shown as it came.
 */
export const reasonText = (lang: Language, stored: string | null): string | null => {
  if (stored === null || !stored.startsWith('@')) return stored;
  const { key, params } = parseRuleMessage(stored.slice(1));
  return key in sharedEn ? translate(lang, key as SharedMessageKey, params) : stored;
};

const exportView = (row: NonNullable<Awaited<ReturnType<LogExportRepository['find']>>>): MinerLogExport => ({
  ...row,
  from: Number(row.from),
  to: Number(row.to),
  bytes: Number(row.bytes),
  created_at: Number(row.created_at),
  updated_at: Number(row.updated_at),
  expires_at: Number(row.expires_at),
});

/** Names joined for an export's label, cut to what the column holds. */
const labelOf = (names: string[]): string => {
  const text = names.join(', ');
  return text.length <= 500 ? text : `${text.slice(0, 497)}…`;
};

/**
 * Miner log exports (spec §2 `/logs/minerLogs`): who sees a mine starts exports of its miners'
 * logs, follows them, cancels, deletes and downloads them. The export job
 * (`LogExportEngine`) asks the gateways and settles each miner.
 */
export class LogExportService {
  constructor(private readonly deps: LogExportDeps) {}

  private repo() {
    return new LogExportRepository(this.deps.db);
  }

  /** Starts an export of the picked miners' logs over the window. */
  async create(user: AreaCaller, body: MinerLogExportBody): Promise<MinerLogExport> {
    await this.deps.areas.requireAccess(user, body.area_id);
    const now = this.deps.clock();
    if (body.from > now + clockSlackMs) throw fieldInvalid('from', 'rule.windowFuture');
    if (body.from < now - minerLogLimits.lookBackMs)
      throw fieldInvalid('from', 'rule.windowTooOld', { max: minerLogLimits.lookBackMs / 86_400_000 });
    const repo = this.repo();
    const { miners, label } = await this.pick(repo, body);
    const field = body.scope === 'filter' ? 'filter' : 'ids';
    if (miners.length === 0) throw fieldInvalid(field, 'rule.noMinersMatch');
    if (miners.length > minerLogLimits.minersMax)
      throw fieldInvalid(field, 'rule.tooManyMiners', { max: minerLogLimits.minersMax });
    if ((await repo.countOf(body.area_id)) >= minerLogLimits.perMine)
      throw new ApiError(Code.CONFLICT, 'api.logExportLimit', { max: minerLogLimits.perMine });
    const id = await repo.create(
      {
        area_id: body.area_id,
        scope: body.scope,
        scope_label: label,
        from_ts: body.from,
        to_ts: body.to,
        created_by: user.id,
        created_at: now,
        expires_at: now + this.deps.config.logExportRetentionDays * 86_400_000,
      },
      miners,
    );
    return exportView((await repo.find(body.area_id, id)) ?? notFound());
  }

  /** The miners an export names (one more than the limit at most) and its label. */
  private async pick(
    repo: LogExportRepository,
    body: MinerLogExportBody,
  ): Promise<{ miners: PickedMiner[]; label: string }> {
    const limit = minerLogLimits.minersMax + 1;
    if (body.scope === 'filter') {
      const filter = { ...body.filter!, area_id: body.area_id };
      const miners = await new MinerRepository(this.deps.db, this.deps.dbDialect).matching(filter, limit);
      const label = Object.entries(body.filter!)
        .filter(([, value]) => value !== undefined && value !== '')
        .map(([key, value]) => `${key}=${String(value)}`);
      return { miners, label: labelOf(label) };
    }
    const ids = [...new Set(body.ids!)];
    let names: { id: number; name: string }[] = [];
    if (body.scope === 'fbox') names = await repo.fboxNames(body.area_id, ids);
    else if (body.scope === 'tank') names = await repo.tankNames(body.area_id, ids);
    else if (body.scope === 'group') names = await repo.groupNames(body.area_id, ids);
    const miners = await repo.minersOf(body.area_id, body.scope, ids, limit);
    if (body.scope === 'miners') {
      // Every id must be a miner of this mine: a foreign one answers "not found", as anywhere.
      if (miners.length !== ids.length) notFound();
      return { miners, label: labelOf(miners.map((m) => m.sn)) };
    }
    if (names.length !== ids.length) notFound();
    return { miners, label: labelOf(names.map((n) => n.name)) };
  }

  async list(user: AreaCaller, areaId: number, page: number, limit: number) {
    await this.deps.areas.requireAccess(user, areaId);
    const { items, total } = await this.repo().page(areaId, limit, (page - 1) * limit);
    return { items: items.map(exportView), total, page, limit };
  }

  async items(
    user: AreaCaller,
    q: { area_id: number; id: number; state?: MinerLogItemState | undefined; page: number; limit: number },
    lang: Language,
  ) {
    await this.deps.areas.requireAccess(user, q.area_id);
    const repo = this.repo();
    if (!(await repo.find(q.area_id, q.id))) notFound();
    const { items, total } = await repo.items(q.id, q.state, q.limit, (q.page - 1) * q.limit);
    const rows: MinerLogItem[] = items.map((r) => ({
      ...r,
      error: reasonText(lang, r.error),
      updated_at: Number(r.updated_at),
    }));
    return { items: rows, total, page: q.page, limit: q.limit };
  }

  async cancel(user: AreaCaller, areaId: number, id: number): Promise<MinerLogExport> {
    await this.deps.areas.requireAccess(user, areaId);
    const repo = this.repo();
    if (!(await repo.find(areaId, id))) notFound();
    if (!(await repo.cancel(areaId, id, this.deps.clock())))
      throw new ApiError(Code.CONFLICT, 'api.logExportNotProcessing');
    await repo.recount(id, this.deps.clock());
    return exportView((await repo.find(areaId, id)) ?? notFound());
  }

  async delete(user: AreaCaller, areaId: number, id: number): Promise<void> {
    await this.deps.areas.requireAccess(user, areaId);
    const repo = this.repo();
    if (!(await repo.find(areaId, id))) notFound();
    await repo.delete([id]);
  }

  /** The zip of a finished or canceled export, streamed; the caller's scope is checked again. */
  async download(user: AreaCaller, areaId: number, id: number, lang: Language): Promise<FileDownload> {
    await this.deps.areas.requireAccess(user, areaId);
    const repo = this.repo();
    const row = (await repo.find(areaId, id)) ?? notFound();
    if (row.status === 'processing') throw new ApiError(Code.CONFLICT, 'api.logExportProcessing');
    const entries = await repo.zipEntries(id);
    return {
      filename: `miner-logs-${id}.zip`,
      contentType: 'application/zip',
      body: logExportZip(exportView(row), entries, (commandId) => repo.partsOf(commandId), lang),
    };
  }
}
