import type { SubAccountListQuery } from '@fbox/contracts';
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { DB, UsersTable } from '../../db/schema.js';
import { containsText } from '../../db/text-match.js';

/** Columns of a sub-account the API may show: never the password hash or TOTP secrets. */
const columns = [
  'users.id',
  'users.username',
  'users.nickname',
  'users.mobile',
  'users.email',
  'users.status',
  'users.authority',
  'users.rules',
  'users.created_at',
  'users.last_login_at',
  'users.last_login_ip',
] as const;

/** Sort field of the contract → column. */
const sortColumns = {
  id: 'users.id',
  username: 'users.username',
  nickname: 'users.nickname',
  mobile: 'users.mobile',
  email: 'users.email',
  status: 'users.status',
  authority: 'users.authority',
  created_at: 'users.created_at',
  last_login_at: 'users.last_login_at',
} as const;

export type SubAccountRow = Awaited<ReturnType<SubAccountRepository['findOwned']>> & {};

export interface NewSubAccount {
  username: string;
  password_hash: string;
  nickname: string;
  mobile: string;
  email: string;
  status: number;
  authority: string;
  rules: string;
}

/** Kysely queries for the sub-accounts of a master. Every lookup is scoped by the master's id. */
export class SubAccountRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private filtered(masterId: number, query: Pick<SubAccountListQuery, 'keyword' | 'status' | 'authority'>) {
    let q = this.db
      .selectFrom('users')
      .where('users.is_master', '=', 0)
      .where('users.parent_id', '=', masterId);
    if (query.keyword) {
      const keyword = query.keyword;
      q = q.where((eb) =>
        eb.or(
          ['users.username', 'users.nickname', 'users.mobile', 'users.email'].map((column) =>
            containsText(column, keyword),
          ),
        ),
      );
    }
    if (query.status) q = q.where('users.status', '=', query.status === 'enabled' ? 1 : 0);
    if (query.authority) q = q.where('users.authority', '=', query.authority);
    return q;
  }

  /** One page of the master's sub-accounts, filtered and sorted in SQL, and the total. */
  async list(masterId: number, query: SubAccountListQuery) {
    const base = this.filtered(masterId, query);
    const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    const sort = query.sort ?? '-id';
    const desc = sort.startsWith('-');
    const column = sortColumns[(desc ? sort.slice(1) : sort) as keyof typeof sortColumns];
    const rows = await base
      .select(columns)
      .orderBy(column, desc ? 'desc' : 'asc')
      .orderBy('users.id', desc ? 'desc' : 'asc')
      .limit(query.limit)
      .offset((query.page - 1) * query.limit)
      .execute();
    return { rows, total: Number(total.n) };
  }

  findOwned(masterId: number, id: number) {
    return this.db
      .selectFrom('users')
      .select(columns)
      .where('users.id', '=', id)
      .where('users.is_master', '=', 0)
      .where('users.parent_id', '=', masterId)
      .executeTakeFirst();
  }

  /** Managed mines of these sub-accounts, in id order. */
  areasOf(userIds: number[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('user_areas')
      .innerJoin('areas', 'areas.id', 'user_areas.area_id')
      .select(['user_areas.user_id', 'areas.id', 'areas.area_name'])
      .where('user_areas.user_id', 'in', userIds)
      .orderBy('areas.id')
      .execute();
  }

  /** How many of these ids are mines the master owns. */
  async countOwnedAreas(masterId: number, areaIds: number[]): Promise<number> {
    const row = await this.db
      .selectFrom('areas')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('owner_id', '=', masterId)
      .where('id', 'in', areaIds)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Whether another account already uses this username (compared case-insensitively). */
  async usernameTaken(username: string, exceptUserId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
      .where('id', '<>', exceptUserId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(
    masterId: number,
    user: NewSubAccount,
    defaults: Omit<Insertable<UsersTable>, keyof NewSubAccount | 'is_master' | 'parent_id'>,
  ) {
    const row = await this.db
      .insertInto('users')
      .values({ ...defaults, ...user, is_master: 0, parent_id: masterId })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, values: Updateable<UsersTable>): Promise<void> {
    await this.db.updateTable('users').set(values).where('id', '=', id).execute();
  }

  async setAreas(userId: number, areaIds: number[]): Promise<void> {
    await this.db.deleteFrom('user_areas').where('user_id', '=', userId).execute();
    if (areaIds.length > 0) {
      await this.db
        .insertInto('user_areas')
        .values(areaIds.map((area_id) => ({ user_id: userId, area_id })))
        .execute();
    }
  }

  /** Ends every live session of the user at once (its token answers "not logged in" from now on). */
  async revokeSessions(userId: number, now: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('user_areas').where('user_id', '=', id).execute();
    await this.db.deleteFrom('users').where('id', '=', id).execute();
  }
}
