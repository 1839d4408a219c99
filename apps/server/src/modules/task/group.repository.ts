import type { GroupMinerFilter, GroupType } from '@fbox/contracts';
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import { containsText } from '../../db/text-match.js';

export type MinerFilter = Omit<GroupMinerFilter, 'member'>;

/** Which miners a bulk membership change names: listed ids, or every miner the filter matches. */
export interface MembersBody {
  area_id: number;
  group_id: number;
  miner_ids: number[];
  all_matching: boolean;
  filter?: MinerFilter | undefined;
}

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

/** The matching miners of `body` (listed ids when not `all_matching`). */
const targets = (db: Kysely<DB>, body: MembersBody) => {
  const q = matching(db, body.area_id, body.all_matching ? body.filter : undefined);
  return body.all_matching ? q : q.where('miner_state.miner_id', 'in', [...new Set(body.miner_ids)]);
};

/** Tasks that still count as using a group: not deleted and not past their end. */
const liveTaskUses = (eb: ExpressionBuilder<DB, 'miner_groups'>, now: number) =>
  eb
    .selectFrom('task_groups')
    .innerJoin('tasks', 'tasks.id', 'task_groups.task_id')
    .whereRef('task_groups.group_id', '=', 'miner_groups.id')
    .where('tasks.state', '<>', 'deleted')
    .where('tasks.end_at', '>', now);

const isMember = (eb: ExpressionBuilder<DB, 'miner_state'>, groupId: number) =>
  eb.exists(
    eb
      .selectFrom('miner_group_members')
      .whereRef('miner_group_members.miner_id', '=', 'miner_state.miner_id')
      .where('miner_group_members.group_id', '=', groupId)
      .select('miner_group_members.miner_id'),
  );

/** Kysely queries for miner groups and their members. Every lookup is scoped by the area. */
export class MinerGroupRepository {
  constructor(private readonly db: Kysely<DB>) {}

  find(areaId: number, id: number) {
    return this.db
      .selectFrom('miner_groups')
      .selectAll()
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Groups with their member count and the count of live tasks using them, newest first. */
  views(areaId: number, ids: number[], now: number) {
    return this.db
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
  }

  /** One page of a type's group ids (newest first), filtered by name, and the total. */
  async page(q: {
    area_id: number;
    type: GroupType;
    keyword?: string | undefined;
    page: number;
    limit: number;
  }) {
    let base = this.db.selectFrom('miner_groups').where('area_id', '=', q.area_id).where('type', '=', q.type);
    if (q.keyword) base = base.where(containsText('name', q.keyword));
    const [rows, total] = await Promise.all([
      base
        .select('id')
        .orderBy('id', 'desc')
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { ids: rows.map((r) => r.id), total: Number(total.n) };
  }

  async insert(values: { area_id: number; type: GroupType; name: string }, now: number) {
    const { id } = await this.db
      .insertInto('miner_groups')
      .values({ ...values, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  async rename(id: number, name: string, now: number) {
    await this.db.updateTable('miner_groups').set({ name, updated_at: now }).where('id', '=', id).execute();
  }

  /** Deletes the group unless a live task uses it; returns the first such task's name, if any. */
  deleteUnlessUsed(id: number, now: number): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const use = await trx
        .selectFrom('task_groups')
        .innerJoin('tasks', 'tasks.id', 'task_groups.task_id')
        .select('tasks.name')
        .where('task_groups.group_id', '=', id)
        .where('tasks.state', '<>', 'deleted')
        .where('tasks.end_at', '>', now)
        .orderBy('tasks.id')
        .executeTakeFirst();
      if (use) return use.name;
      await trx.deleteFrom('miner_groups').where('id', '=', id).execute();
      return null;
    });
  }

  /** The group editor's page of the area's miners, each saying whether it is in the group. */
  async miners(q: GroupMinerFilter & { area_id: number; group_id: number; page: number; limit: number }) {
    let base = matching(this.db, q.area_id, q);
    if (q.member === 'in') base = base.where((eb) => isMember(eb, q.group_id));
    if (q.member === 'out') base = base.where((eb) => eb.not(isMember(eb, q.group_id)));
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
          isMember(eb, q.group_id).as('in_group'),
        ])
        .orderBy('miner_state.miner_id')
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(total.n) };
  }

  /** How many of these ids are miners of the area. */
  async countMiners(areaId: number, ids: number[]): Promise<number> {
    const found = await this.db
      .selectFrom('miner_state')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('area_id', '=', areaId)
      .where('miner_id', 'in', ids)
      .executeTakeFirstOrThrow();
    return Number(found.n);
  }

  private static async memberCount(db: Kysely<DB>, groupId: number) {
    const r = await db
      .selectFrom('miner_group_members')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('group_id', '=', groupId)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * Adds the named miners not yet in the group, in one transaction, unless the group would then
   * hold more than `max` (null: nothing changed).
   */
  addMembers(body: MembersBody, max: number, now: number) {
    return this.db.transaction().execute(async (trx) => {
      const before = await MinerGroupRepository.memberCount(trx, body.group_id);
      const source = targets(trx, body)
        .where((eb) => eb.not(isMember(eb, body.group_id)))
        .select([sql.lit(body.group_id).as('group_id'), 'miner_state.miner_id']);
      const added = await trx
        .selectFrom(source.as('s'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      if (before + Number(added.n) > max) return null;
      if (Number(added.n) > 0) {
        await trx
          .insertInto('miner_group_members')
          .columns(['group_id', 'miner_id'])
          .expression(source)
          .onConflict((oc) => oc.columns(['group_id', 'miner_id']).doNothing())
          .execute();
      }
      return this.touched(trx, body.group_id, before, now);
    });
  }

  /** Removes the named miners from the group, in one transaction. */
  removeMembers(body: MembersBody, now: number) {
    return this.db.transaction().execute(async (trx) => {
      const before = await MinerGroupRepository.memberCount(trx, body.group_id);
      await trx
        .deleteFrom('miner_group_members')
        .where('group_id', '=', body.group_id)
        .where('miner_id', 'in', targets(trx, body).select('miner_state.miner_id'))
        .execute();
      return this.touched(trx, body.group_id, before, now);
    });
  }

  /** Marks the group changed; how many members it had before and has now. */
  private async touched(trx: Kysely<DB>, groupId: number, before: number, now: number) {
    await trx.updateTable('miner_groups').set({ updated_at: now }).where('id', '=', groupId).execute();
    return { before, after: await MinerGroupRepository.memberCount(trx, groupId) };
  }
}
