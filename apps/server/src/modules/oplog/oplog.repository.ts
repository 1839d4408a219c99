import type { Insertable, Kysely, SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { OperationLogTable } from './oplog.schema.js';

/** Whose records a reader sees (see `OplogService`). */
export type OplogScope =
  | { kind: 'master'; masterId: number }
  | { kind: 'administrator'; masterId: number; userId: number }
  | { kind: 'own'; userId: number };

export interface OplogFilter {
  user_id?: number | undefined;
  action?: string | undefined;
  mine_id?: number | undefined;
  outcome?: 'success' | 'failed' | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

const columns = [
  'id',
  'at',
  'user_id',
  'username',
  'ip',
  'area_id',
  'area_name',
  'action',
  'path',
  'target',
  'params',
  'code',
  'message_key',
  'message_params',
] as const;

type Query = SelectQueryBuilder<DB, 'operation_log', object>;

/** The reader's scope and the filters as one WHERE; paging and sorting stay in SQL. */
const scoped = (query: Query, scope: OplogScope, f: OplogFilter): Query => {
  let q = query;
  if (scope.kind === 'master') q = q.where('master_id', '=', scope.masterId);
  else if (scope.kind === 'own') q = q.where('user_id', '=', scope.userId);
  else {
    const { masterId, userId } = scope;
    q = q
      .where('master_id', '=', masterId)
      .where((eb) =>
        eb.or([
          eb('user_id', '=', userId),
          eb('area_id', 'in', eb.selectFrom('user_areas').select('area_id').where('user_id', '=', userId)),
        ]),
      );
  }
  if (f.user_id !== undefined) q = q.where('user_id', '=', f.user_id);
  if (f.action !== undefined) q = q.where('action', '=', f.action);
  if (f.mine_id !== undefined) q = q.where('area_id', '=', f.mine_id);
  if (f.outcome === 'success') q = q.where('code', '=', 1);
  if (f.outcome === 'failed') q = q.where('code', '<>', 1);
  if (f.from !== undefined) q = q.where('at', '>=', f.from);
  if (f.to !== undefined) q = q.where('at', '<', f.to);
  return q;
};

/** Kysely queries of the operation log. There is no update or delete: records are append-only. */
export class OplogRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(row: Insertable<OperationLogTable>): Promise<void> {
    await this.db.insertInto('operation_log').values(row).execute();
  }

  async page(scope: OplogScope, filter: OplogFilter, page: number, limit: number) {
    const base = scoped(this.db.selectFrom('operation_log'), scope, filter);
    const [items, total] = await Promise.all([
      base
        .select(columns)
        .orderBy('at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  }

  /** Every matching record, newest first, in pages of `size` (keyset paging on (at, id)). */
  async *all(scope: OplogScope, filter: OplogFilter, size = 1000) {
    let after: { at: number; id: number } | null = null;
    for (;;) {
      let q = scoped(this.db.selectFrom('operation_log'), scope, filter).select(columns);
      if (after) {
        const { at, id } = after;
        q = q.where((eb) => eb.or([eb('at', '<', at), eb.and([eb('at', '=', at), eb('id', '<', id)])]));
      }
      const rows = await q.orderBy('at', 'desc').orderBy('id', 'desc').limit(size).execute();
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < size) return;
      const last = rows[rows.length - 1]!;
      after = { at: last.at, id: last.id };
    }
  }

  /** The users that appear in the reader's records (deleted accounts included: the log outlives them). */
  users(scope: OplogScope) {
    return scoped(this.db.selectFrom('operation_log'), scope, {})
      .select(['user_id', 'username'])
      .distinct()
      .orderBy('username')
      .orderBy('user_id')
      .execute();
  }

  /** Whether the user is the master `masterId` or one of its sub-accounts. */
  async inAccount(masterId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('id', '=', masterId), eb('parent_id', '=', masterId)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Whether the reader sees at least one record of this user. */
  async hasRecordsOf(scope: OplogScope, userId: number): Promise<boolean> {
    const row = await scoped(this.db.selectFrom('operation_log'), scope, { user_id: userId })
      .select('id')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Who a login names: its id and master, when the user name exists. */
  findLoginUser(username: string) {
    return this.db
      .selectFrom('users')
      .select(['id', 'username', 'is_master', 'parent_id'])
      .where('username', '=', username)
      .executeTakeFirst();
  }
}

export type OplogRow = Awaited<ReturnType<OplogRepository['page']>>['items'][number];
