import { randomBytes } from 'node:crypto';
import type {
  HistoryQuery,
  MinerAction,
  MinerBatchResult,
  MinerDetail,
  MinerExportQuery,
  MinerListItem,
  MinerListQuery,
} from '@fbox/contracts';
import { issueBatch } from '../../devices/batch.js';
import { commandView, type IssueCommand } from '../../devices/command.service.js';
import { statusOf } from '../../devices/device-values.js';
import { deviceHistory, retentionOf } from '../../devices/history.js';
import { JsonText } from '../../lib/json-text.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { type DeviceDeps, notFound } from '../device-access.js';
import { AccountSwitchRepository } from '../fbox-config/account-switches.repository.js';
import { hijackedAmong } from '../fbox-config/pool-guard.js';
import { CountCache } from './count-cache.js';
import { keywordIndexed, MinerRepository, snapshotSort } from './miner.repository.js';
import { PageAnchors } from './page-anchors.js';
import { SortSnapshots } from './sort-snapshots.js';

type Caller = AreaCaller;
type MinerRow = NonNullable<Awaited<ReturnType<MinerRepository['find']>>>;

/** The command of a miner action: its kind and parameters (send-only ones apart). */
export type MinerCommand = Pick<IssueCommand, 'kind' | 'params' | 'secretParams'>;

const minerSeries = {
  raw: 'miner_samples',
  m1: 'miner_samples_1m',
  h1: 'miner_samples_1h',
  idColumn: 'miner_id',
  metrics: { hashrate: 'hashrate', power_w: 'power_w', chip_max_temp: 'chip_max_temp' },
} as const;

export const actionCommands: Record<MinerAction, MinerCommand> = {
  restart: { kind: 'miner.restart', params: {} },
  high: { kind: 'miner.mode', params: { mode: 'high' } },
  low: { kind: 'miner.mode', params: { mode: 'low' } },
  resave: { kind: 'miner.resave_account', params: {} },
  overclock_on: { kind: 'miner.overclock', params: { status: 'on' } },
  overclock_off: { kind: 'miner.overclock', params: { status: 'off' } },
};

export const minerItem = (r: Omit<MinerRow, 'area_id'> & { pool_hijacked?: number }): MinerListItem => ({
  id: r.id,
  sn: r.sn,
  worker: r.worker,
  model: r.model,
  brand: r.brand,
  pool: r.pool,
  pool_address: r.pool_address,
  ip: r.ip,
  firmware: r.firmware,
  fbox_id: r.fbox_id,
  fbox_name: r.fbox_name ?? '',
  tank_id: r.tank_id,
  tank_name: r.tank_name ?? null,
  outlet: r.outlet,
  status: statusOf(r.online),
  mode: r.mode === 'low' ? 'low' : 'high',
  fault: r.fault,
  chip_avg_temp: r.chip_avg_temp,
  chip_max_temp: r.chip_max_temp,
  hashrate_theoretical: r.hashrate_theoretical,
  hashrate_realtime: r.hashrate_realtime,
  hashrate_avg: r.hashrate_avg,
  hashrate_24h: r.hashrate_24h,
  power_w: r.power_w,
  uptime_s: r.uptime_s,
  updated_at: r.updated_at,
  // Lock Pool's guard (modules/fbox-config/pool-guard.ts): list pages read it with the rows.
  pool_hijacked: r.pool_hijacked === 1,
});

/**
 * Miners (`fbox.miner`): the list (filters, sort and paging in SQL), detail with recent commands,
 * and device actions — one command per miner with a shared batch id, per-miner outcomes.
 */
export class MinerService {
  private readonly counts = new CountCache();
  private readonly snapshots = new SortSnapshots();
  private readonly anchors: PageAnchors;
  /** Lists of at least this many miners take a sort no index serves from a snapshot, deep pages from anchors. */
  private readonly snapshotFrom: number;
  /** A keyword matching at most this many miners is looked up in its index (see `keywordMatches`). */
  private readonly keywordFew: number;

  constructor(
    private readonly deps: DeviceDeps,
    options: { snapshotFrom?: number; anchorStep?: number; keywordFew?: number } = {},
  ) {
    this.snapshotFrom = options.snapshotFrom ?? 5000;
    this.keywordFew = options.keywordFew ?? 2000;
    this.anchors = new PageAnchors({ step: options.anchorStep });
  }

  /** Forgets cached list totals and orders of a mine (device changes elsewhere call it too). */
  invalidate(areaId: number): void {
    this.counts.clearArea(areaId);
    this.snapshots.clearArea(areaId);
    this.anchors.clearArea(areaId);
  }

  private repo() {
    return new MinerRepository(this.deps.db, this.deps.dbDialect);
  }

  async list(user: Caller, q: MinerListQuery) {
    await this.deps.areas.requireAccess(user, q.area_id);
    const repo = this.repo();
    const { page: _page, limit: _limit, sort: _sort, area_id: areaId, ...filters } = q;
    const key = JSON.stringify(filters);
    const now = this.deps.clock();
    const offset = (q.page - 1) * q.limit;
    // With Lock Pool off no miner is hijacked: nothing to look for among the mine's rows.
    if (q.pool_hijacked && !(await new AccountSwitchRepository(this.deps.db).poolLocked(areaId)))
      return { items: new JsonText<MinerListItem[]>('[]'), total: 0, page: q.page, limit: q.limit };
    const cached = this.counts.get(areaId, key, now);
    const matches = await this.keywordMatches(repo, q, key, cached?.total, now);
    if (matches !== undefined) {
      // The page's rows are tested again (a miner renamed since): the few rows themselves, not the index.
      const ids = matches.slice(offset, offset + q.limit);
      const { items } = await repo.pageJson(q, q.limit, offset, { ids, keyword: 'rows' });
      return {
        items: new JsonText<MinerListItem[]>(items),
        total: matches.length,
        page: q.page,
        limit: q.limit,
      };
    }
    // A keyword matching many is found on the way through the list's order (see keywordMatches).
    const keyword = 'rows' as const;
    // A large list sorted where no index serves takes the page's miners from a sort snapshot.
    const ids =
      cached !== undefined &&
      cached.total >= this.snapshotFrom &&
      this.snapshots.serves(offset + q.limit) &&
      snapshotSort(this.deps.dbDialect, q.sort)
        ? await this.snapshots.page(
            areaId,
            `${q.sort}|${key}`,
            offset,
            q.limit,
            (rows) => repo.orderedIds(q, rows),
            this.deps.clock,
          )
        : undefined;
    // A deep page of a large list in id order follows the id at an anchored position before it.
    const anchored =
      ids === undefined &&
      (q.sort ?? 'id') === 'id' &&
      cached !== undefined &&
      cached.total >= this.snapshotFrom
        ? this.anchors.position(offset)
        : 0;
    const after =
      anchored > 0
        ? await this.anchors.before(areaId, key, anchored, () => repo.idAt(q, anchored - 1), this.deps.clock)
        : undefined;
    // The page's items come as JSON built by the database (see JsonText).
    const { items, count } =
      after === undefined
        ? await repo.pageJson(q, q.limit, offset, { ids, keyword })
        : await repo.pageJson(q, q.limit, offset - anchored, { after, keyword });
    let total = cached?.total;
    // A cached total that contradicts the page just read is wrong: count again now.
    const consistent = (n: number) => (count === q.limit ? n >= offset + count : n === offset + count);
    if (total === undefined || (!consistent(total) && (count > 0 || q.page === 1))) {
      // A first page shorter than the limit is the whole result: no count needed.
      total = q.page === 1 && count < q.limit ? count : await repo.count(q);
      this.counts.set(areaId, key, total, now);
    } else if (!cached?.fresh) {
      this.counts.refresh(areaId, key, () => repo.count(q), this.deps.clock);
    }
    return { items: new JsonText<MinerListItem[]>(items), total, page: q.page, limit: q.limit };
  }

  /**
   * All the miners of a list whose keyword (3 characters or more) matches few of them, in the list's
   * order, found in the keyword's trigram index; undefined for any other list. The list's total,
   * counted from the same index, tells few (at most `keywordFew`) from many. A walk in the list's
   * order tests each row it reads and stops at a full page: quick for a keyword matching many, but
   * for one miner's SN it reads the whole mine (1,000,000 miners: 3–5 s). Looking one SN up in
   * the index takes 10–16 ms there (its common trigrams, such as a shared prefix's, have long
   * lists), so the matches are kept as a sort snapshot's order is: the page's rows are read and
   * tested fresh.
   */
  private async keywordMatches(
    repo: MinerRepository,
    q: MinerListQuery,
    key: string,
    cachedTotal: number | undefined,
    now: number,
  ): Promise<number[] | undefined> {
    if (!keywordIndexed(q.keyword)) return undefined;
    const total = cachedTotal ?? (await repo.count(q));
    if (total > this.keywordFew) {
      if (cachedTotal === undefined) this.counts.set(q.area_id, key, total, now);
      return undefined;
    }
    // Which miners match is kept as a sort snapshot is (5 s fresh, then refreshed in the background).
    const ids = await this.snapshots.all(
      q.area_id,
      `keyword|${q.sort}|${key}`,
      () => repo.allIds(q),
      this.deps.clock,
    );
    this.counts.set(q.area_id, key, ids.length, now);
    return ids;
  }

  async detail(user: Caller, areaId: number, id: number): Promise<MinerDetail> {
    await this.deps.areas.requireAccess(user, areaId);
    const row = (await this.repo().find(areaId, id)) ?? notFound();
    const commands = await this.deps.commands.listForMiner(id, 20);
    const hijacked = await hijackedAmong(this.deps.db, areaId, [id]);
    return {
      ...minerItem(row),
      pool_hijacked: hijacked.has(id),
      area_id: row.area_id,
      commands: commands.map(commandView),
    };
  }

  async filterOptions(user: Caller, areaId: number) {
    await this.deps.areas.requireAccess(user, areaId);
    const repo = this.repo();
    const [models, brands, pools, faults] = await Promise.all([
      repo.distinct(areaId, 'model'),
      repo.distinct(areaId, 'brand'),
      repo.distinct(areaId, 'pool'),
      repo.distinct(areaId, 'fault'),
    ]);
    return { models, brands, pools, faults };
  }

  /** Rows of an export in pages, so a 100,000-miner site never sits in memory at once. */
  async *exportRows(user: Caller, q: MinerExportQuery): AsyncGenerator<MinerListItem[]> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const repo = this.repo();
    const pageSize = 2000;
    for (let offset = 0; ; offset += pageSize) {
      const rows = await repo.page(q, pageSize, offset);
      if (rows.length > 0) yield rows.map(minerItem);
      if (rows.length < pageSize) return;
    }
  }

  async delete(user: Caller, areaId: number, ids: number[]) {
    await this.deps.areas.requireAccess(user, areaId);
    const unique = [...new Set(ids)];
    const deleted = await this.repo().delete(areaId, unique);
    this.invalidate(areaId);
    // Ids of another mine were not deleted, and the removal names this mine only.
    if (deleted > 0) await this.deps.devices.removed({ areaId, kind: 'miner', ids: unique });
    return { deleted };
  }

  /**
   * Issues `command` to each miner of `ids` in the area, all under one batch id. An id that is not
   * a miner of this area answers `not_found` and nothing is sent for it.
   */
  async act(
    user: SessionUser,
    areaId: number,
    ids: number[],
    command: MinerCommand,
  ): Promise<MinerBatchResult> {
    await this.deps.areas.requireAccess(user, areaId);
    // Lock Pool: pool changes are refused while the master has it on.
    if (command.kind === 'miner.pool') await this.deps.accountSwitches.assertPoolUnlocked(areaId);
    const unique = [...new Set(ids)];
    const miners = new Map((await this.repo().findTargets(areaId, unique)).map((m) => [m.id, m]));
    const batchId = randomBytes(12).toString('hex');
    const inputs = unique.flatMap((id): IssueCommand[] => {
      const miner = miners.get(id);
      if (!miner) return [];
      return [
        {
          areaId,
          fboxId: miner.fbox_id,
          minerId: id,
          tankId: miner.tank_id,
          target: { sn: miner.sn, ...(miner.outlet != null && { outlet: miner.outlet }) },
          userId: user.id,
          batchId,
          ...command,
        },
      ];
    });
    const result = await issueBatch(this.deps, batchId, 'miner_id', unique, inputs);
    if (command.kind === 'miner.pool') {
      const { pool_address, worker } = command.params as { pool_address: string; worker: string };
      await this.deps.accountSwitches.recordConfiguredPool([...miners.keys()], pool_address, worker);
    }
    return result;
  }

  async history(user: Caller, q: HistoryQuery) {
    await this.deps.areas.requireAccess(user, q.area_id);
    (await this.repo().find(q.area_id, q.id)) ?? notFound();
    const metrics = ['hashrate', 'power_w', 'chip_max_temp'] as const;
    return deviceHistory(this.deps.db, minerSeries, q.id, metrics, q, retentionOf(this.deps));
  }
}
