import {
  Code,
  type GroupMiner,
  type GroupMinerFilter,
  type GroupType,
  type MinerGroup,
  maxGroupMiners,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { containsText } from '../../db/text-match.js';
import { statusOf } from '../../devices/device-values.js';
import { ApiError } from '../../lib/api-error.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound, requireManage } from '../device-access.js';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'areas'>;
type MinerFilter = Omit<GroupMinerFilter, 'member'>;

/** Miners of an area matching the group editor's filter (by FBOX, tank, model, status, search). */
const matching = (db: Kysely<DB>, areaId: number, f: MinerFilter | undefined) => {
  let q = db.selectFrom('miner_state').where('miner_state.area_id', '=', areaId);
  if (f?.fbox_id !== undefined) q = q.where('miner_state.fbox_id', '=', f.fbox_id);
  if (f?.tank_id !== undefined) q = q.where('miner_state.tank_id', '=', f.tank_id);
  if (f?.model) q = q.where('miner_state.model', '=', f.model);
  if (f?.status) q = q.where('miner_state.online', '=', f.status === 'online' ? 1 : 0);
  if (f?.keyword) {
    const k = f.keyword;
    q = q.where((eb) =>
      eb.or([
        containsText('miner_state.worker', k),
        containsText('miner_state.ip', k),
        containsText('miner_state.sn', k),
      ]),
    );
  }
  return q;
};

/** Tasks that still count as using a group: not deleted and not past their end. */
export const liveTaskUses = (eb: ExpressionBuilder<DB, 'miner_groups'>, now: number) =>
  eb
    .selectFrom('task_groups')
    .innerJoin('tasks', 'tasks.id', 'task_groups.task_id')
    .whereRef('task_groups.group_id', '=', 'miner_groups.id')
    .where('tasks.state', '<>', 'deleted')
    .where('tasks.end_at', '>', now);

/**
 * Miner groups (spec §3): named sets of miners of one mine, separate per task type. Tasks pick
 * groups of their type; a group used by a live task cannot be deleted.
 */
export class MinerGroupService {
  constructor(private readonly deps: Deps) {}

  private get db() {
    return this.deps.db;
  }

  private async findGroup(areaId: number, id: number) {
    return (
      (await this.db
        .selectFrom('miner_groups')
        .selectAll()
        .where('area_id', '=', areaId)
        .where('id', '=', id)
        .executeTakeFirst()) ?? notFound()
    );
  }

  private async view(areaId: number, ids: number[]): Promise<MinerGroup[]> {
    if (ids.length === 0) return [];
    const now = this.deps.clock();
    const rows = await this.db
      .selectFrom('miner_groups')
      .select((eb) => [
        'miner_groups.id',
        'miner_groups.name',
        'miner_groups.type',
        'miner_groups.created_at',
        'miner_groups.updated_at',
        eb
          .selectFrom('miner_group_members')
          .whereRef('miner_group_members.group_id', '=', 'miner_groups.id')
          .select(eb.fn.countAll<number>().as('n'))
          .as('miner_count'),
        liveTaskUses(eb, now).select(eb.fn.countAll<number>().as('n')).as('task_count'),
      ])
      .where('miner_groups.area_id', '=', areaId)
      .where('miner_groups.id', 'in', ids)
      .orderBy('miner_groups.id', 'desc')
      .execute();
    return rows.map((r) => ({
      ...r,
      type: r.type as GroupType,
      miner_count: Number(r.miner_count ?? 0),
      task_count: Number(r.task_count ?? 0),
    }));
  }

  async list(
    user: AreaCaller,
    q: { area_id: number; type: GroupType; keyword?: string | undefined; page: number; limit: number },
  ) {
    await this.deps.areas.requireAccess(user, q.area_id);
    let base = this.db.selectFrom('miner_groups').where('area_id', '=', q.area_id).where('type', '=', q.type);
    if (q.keyword) base = base.where(containsText('name', q.keyword));
    const [ids, total] = await Promise.all([
      base
        .select('id')
        .orderBy('id', 'desc')
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const items = await this.view(
      q.area_id,
      ids.map((r) => r.id),
    );
    return { items, total: Number(total.n), page: q.page, limit: q.limit };
  }

  /** One group of the mine with its counts (the group editor's header). */
  async detail(user: AreaCaller, body: { area_id: number; id: number }): Promise<MinerGroup> {
    await this.deps.areas.requireAccess(user, body.area_id);
    return (await this.view(body.area_id, [body.id]))[0] ?? notFound();
  }

  async add(user: AreaCaller, body: { area_id: number; name: string; type: GroupType }) {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const now = this.deps.clock();
    try {
      const { id } = await this.db
        .insertInto('miner_groups')
        .values({ area_id: body.area_id, type: body.type, name: body.name, created_at: now, updated_at: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return (await this.view(body.area_id, [id]))[0]!;
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(Code.CONFLICT, 'api.groupNameTaken');
      throw error;
    }
  }

  async edit(user: AreaCaller, body: { area_id: number; id: number; name: string }) {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    await this.findGroup(body.area_id, body.id);
    try {
      await this.db
        .updateTable('miner_groups')
        .set({ name: body.name, updated_at: this.deps.clock() })
        .where('id', '=', body.id)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(Code.CONFLICT, 'api.groupNameTaken');
      throw error;
    }
    return (await this.view(body.area_id, [body.id]))[0]!;
  }

  async delete(user: AreaCaller, body: { area_id: number; id: number }) {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    await this.findGroup(body.area_id, body.id);
    const now = this.deps.clock();
    await this.db.transaction().execute(async (trx) => {
      const use = await trx
        .selectFrom('task_groups')
        .innerJoin('tasks', 'tasks.id', 'task_groups.task_id')
        .select('tasks.name')
        .where('task_groups.group_id', '=', body.id)
        .where('tasks.state', '<>', 'deleted')
        .where('tasks.end_at', '>', now)
        .orderBy('tasks.id')
        .executeTakeFirst();
      if (use) throw new ApiError(Code.CONFLICT, 'api.groupInUse', { task: use.name });
      await trx.deleteFrom('miner_groups').where('id', '=', body.id).execute();
    });
    return null;
  }

  /** The group editor's miner list: the mine's miners by filter, each saying whether it is in. */
  async miners(
    user: AreaCaller,
    q: GroupMinerFilter & { area_id: number; group_id: number; page: number; limit: number },
  ) {
    await this.deps.areas.requireAccess(user, q.area_id);
    await this.findGroup(q.area_id, q.group_id);
    let base = matching(this.db, q.area_id, q);
    const member = (eb: ExpressionBuilder<DB, 'miner_state'>) =>
      eb
        .selectFrom('miner_group_members')
        .whereRef('miner_group_members.miner_id', '=', 'miner_state.miner_id')
        .where('miner_group_members.group_id', '=', q.group_id)
        .select('miner_group_members.miner_id');
    if (q.member === 'in') base = base.where((eb) => eb.exists(member(eb)));
    if (q.member === 'out') base = base.where((eb) => eb.not(eb.exists(member(eb))));
    const [rows, total] = await Promise.all([
      base
        .leftJoin('fboxes', 'fboxes.id', 'miner_state.fbox_id')
        .leftJoin('tanks', 'tanks.id', 'miner_state.tank_id')
        .select((eb) => [
          'miner_state.miner_id as id',
          'miner_state.worker',
          'miner_state.sn',
          'miner_state.ip',
          'miner_state.model',
          'miner_state.fbox_id',
          'fboxes.name as fbox_name',
          'miner_state.tank_id',
          'tanks.name as tank_name',
          'miner_state.online',
          'miner_state.hashrate_realtime',
          eb.exists(member(eb)).as('in_group'),
        ])
        .orderBy('miner_state.miner_id')
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    const items: GroupMiner[] = rows.map((r) => ({
      id: r.id,
      worker: r.worker,
      sn: r.sn,
      ip: r.ip,
      model: r.model,
      fbox_id: r.fbox_id,
      fbox_name: r.fbox_name ?? '',
      tank_id: r.tank_id,
      tank_name: r.tank_name ?? null,
      status: statusOf(r.online),
      hashrate_realtime: r.hashrate_realtime,
      in_group: Boolean(Number(r.in_group)),
    }));
    return { items, total: Number(total.n), page: q.page, limit: q.limit };
  }

  private memberCount(db: Kysely<DB>, groupId: number) {
    return db
      .selectFrom('miner_group_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', groupId)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  /**
   * Listed miners must all be miners of the mine: an id of another mine answers "not found" and
   * nothing changes (ids cannot be probed, and a typo does not half-apply).
   */
  private async requireMiners(areaId: number, ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    const found = await this.db
      .selectFrom('miner_state')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('area_id', '=', areaId)
      .where('miner_id', 'in', unique)
      .executeTakeFirstOrThrow();
    if (Number(found.n) !== unique.length) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
  }

  /** Bulk add: the listed miners of the mine, or every miner the filter matches. */
  async addMiners(user: AreaCaller, body: MembersBody) {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    await this.findGroup(body.area_id, body.group_id);
    if (!body.all_matching) await this.requireMiners(body.area_id, body.miner_ids);
    return this.db.transaction().execute(async (trx) => {
      const before = await this.memberCount(trx, body.group_id);
      let source = matching(trx, body.area_id, body.all_matching ? body.filter : undefined)
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('miner_group_members')
                .whereRef('miner_group_members.miner_id', '=', 'miner_state.miner_id')
                .where('miner_group_members.group_id', '=', body.group_id)
                .select('miner_group_members.miner_id'),
            ),
          ),
        )
        .select([sql.lit(body.group_id).as('group_id'), 'miner_state.miner_id']);
      if (!body.all_matching)
        source = source.where('miner_state.miner_id', 'in', [...new Set(body.miner_ids)]);
      const added = Number(
        (
          await trx
            .selectFrom(source.as('s'))
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      if (before + added > maxGroupMiners)
        throw new ApiError(Code.CONFLICT, 'api.groupTooLarge', { max: maxGroupMiners });
      if (added > 0) {
        await trx
          .insertInto('miner_group_members')
          .columns(['group_id', 'miner_id'])
          .expression(source)
          .onConflict((oc) => oc.columns(['group_id', 'miner_id']).doNothing())
          .execute();
      }
      await trx
        .updateTable('miner_groups')
        .set({ updated_at: this.deps.clock() })
        .where('id', '=', body.group_id)
        .execute();
      const after = await this.memberCount(trx, body.group_id);
      return { changed: after - before, miner_count: after };
    });
  }

  /** Bulk remove: the listed miners, or every member the filter matches. */
  async removeMiners(user: AreaCaller, body: MembersBody) {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    await this.findGroup(body.area_id, body.group_id);
    if (!body.all_matching) await this.requireMiners(body.area_id, body.miner_ids);
    return this.db.transaction().execute(async (trx) => {
      const before = await this.memberCount(trx, body.group_id);
      let targets = matching(trx, body.area_id, body.all_matching ? body.filter : undefined).select(
        'miner_state.miner_id',
      );
      if (!body.all_matching)
        targets = targets.where('miner_state.miner_id', 'in', [...new Set(body.miner_ids)]);
      await trx
        .deleteFrom('miner_group_members')
        .where('group_id', '=', body.group_id)
        .where('miner_id', 'in', targets)
        .execute();
      await trx
        .updateTable('miner_groups')
        .set({ updated_at: this.deps.clock() })
        .where('id', '=', body.group_id)
        .execute();
      const after = await this.memberCount(trx, body.group_id);
      return { changed: before - after, miner_count: after };
    });
  }
}

export interface MembersBody {
  area_id: number;
  group_id: number;
  miner_ids: number[];
  all_matching: boolean;
  filter?: MinerFilter | undefined;
}
