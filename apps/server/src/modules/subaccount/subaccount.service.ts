import {
  type Authority,
  Code,
  effectiveRules,
  type OperatorRule,
  operatorRules,
  type RuleList,
  type SubAccount,
  type SubAccountCreateBody,
  type SubAccountEditBody,
  type SubAccountListQuery,
} from '@fbox/contracts';
import type { Kysely, Updateable } from 'kysely';
import type { DB, UsersTable } from '../../db/schema.js';
import { ApiError, fieldConflict } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { refuseCommonPassword } from '../../lib/common-passwords.js';
import { hashPassword } from '../../lib/password.js';
import { parseRules, type SessionUser } from '../auth/auth.service.js';
import { UserRepository, userDefaults } from '../user/user.repository.js';
import { accountConflict } from '../user/user.service.js';
import { SubAccountRepository, type SubAccountRow } from './subaccount.repository.js';

interface ListPage<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

const notFound = (): never => {
  throw new ApiError(Code.NOT_FOUND, 'api.notFound');
};

type Master = Pick<SessionUser, 'id' | 'role'>;

/** Only masters manage sub-accounts (the contract says so too; services do not trust callers). */
const masterId = (user: Master): number => {
  if (user.role !== 'master') throw new ApiError(Code.FORBIDDEN, 'api.forbidden');
  return user.id;
};

/** The rules stored for an authority: an administrator holds every rule, so none are stored. */
const storedRules = (authority: Authority, rules: readonly OperatorRule[] | undefined): string =>
  JSON.stringify(authority === 'administrator' ? [] : operatorRules.filter((r) => rules?.includes(r)));

/**
 * Sub-accounts of a master account (`fbox.user` index, create, edit, deleted) and the caller's own
 * rule list (`getrule`). A master sees and changes only its own sub-accounts: any other id answers
 * "not found". Disabling, deleting or re-passwording a sub-account ends its sessions at once.
 */
export class SubAccountService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async list(master: Master, query: SubAccountListQuery): Promise<ListPage<SubAccount>> {
    const repo = new SubAccountRepository(this.db);
    const { rows, total } = await repo.list(masterId(master), query);
    return { items: await this.withAreas(repo, rows), total, page: query.page, limit: query.limit };
  }

  /**
   * Creates a sub-account of the master, in one transaction: a taken username, email or phone, or a
   * mine that is not the master's, leaves nothing behind.
   * @throws ApiError CONFLICT for a taken username, email or phone; NOT_FOUND for a foreign mine.
   */
  async create(master: Master, body: SubAccountCreateBody): Promise<SubAccount> {
    const ownerId = masterId(master);
    await refuseCommonPassword(body.password);
    const passwordHash = await hashPassword(body.password);
    const id = await this.transaction(async (repo, users) => {
      await this.checkUnique(repo, users, body, -1, ownerId);
      const areaIds = await this.checkAreas(repo, ownerId, body.area_ids);
      const now = this.clock();
      const userId = await repo.insert(
        ownerId,
        {
          username: body.username,
          password_hash: passwordHash,
          nickname: body.nickname,
          mobile: body.mobile,
          email: body.email,
          status: body.status === 'enabled' ? 1 : 0,
          authority: body.authority,
          rules: storedRules(body.authority, body.rules),
        },
        {
          time_zone: userDefaults.time_zone,
          headimg: userDefaults.headimg,
          global_config: userDefaults.global_config,
          alert_send_level: userDefaults.alert_send_level,
          email_send: userDefaults.channel,
          sms_send: userDefaults.channel,
          teams_send: userDefaults.channel,
          telegram_send: userDefaults.channel,
          sms_times: userDefaults.sms_times,
          auto_frequency: 0,
          auto_frequency_min: 0,
          auto_frequency_max: 0,
          pool_locked: 0,
          created_at: now,
          updated_at: now,
        },
      );
      await repo.setAreas(userId, areaIds);
      return userId;
    });
    return this.get(ownerId, id);
  }

  /**
   * Changes the fields present in the body. Disabling the account or giving it a new password ends
   * its sessions at once; authority, rules and mines apply to its next request.
   */
  async edit(master: Master, body: SubAccountEditBody): Promise<SubAccount> {
    const ownerId = masterId(master);
    if (body.password !== undefined) await refuseCommonPassword(body.password);
    const passwordHash = body.password === undefined ? undefined : await hashPassword(body.password);
    await this.transaction(async (repo, users) => {
      const current = (await repo.findOwned(ownerId, body.id)) ?? notFound();
      await this.checkUnique(repo, users, body, body.id, ownerId);
      const areaIds = body.area_ids && (await this.checkAreas(repo, ownerId, body.area_ids));
      const now = this.clock();
      const values: Updateable<UsersTable> = {};
      if (body.username !== undefined) values.username = body.username;
      if (passwordHash !== undefined) values.password_hash = passwordHash;
      if (body.nickname !== undefined) values.nickname = body.nickname;
      if (body.mobile !== undefined) values.mobile = body.mobile;
      if (body.email !== undefined) values.email = body.email;
      if (body.status !== undefined) values.status = body.status === 'enabled' ? 1 : 0;
      const authority = body.authority ?? (current.authority as Authority);
      if (body.authority !== undefined || body.rules !== undefined) {
        values.authority = authority;
        values.rules = storedRules(authority, body.rules ?? parseRules(current.rules));
      }
      if (Object.keys(values).length > 0) await repo.update(body.id, { ...values, updated_at: now });
      if (areaIds) await repo.setAreas(body.id, areaIds);
      if (values.status === 0 || passwordHash !== undefined) await repo.revokeSessions(body.id, now);
    });
    return this.get(ownerId, body.id);
  }

  /** Deletes the sub-account; its sessions end with it. */
  async delete(master: Master, id: number): Promise<void> {
    const ownerId = masterId(master);
    await this.transaction(async (repo) => {
      if (!(await repo.findOwned(ownerId, id))) notFound();
      await repo.revokeSessions(id, this.clock());
      await repo.delete(id);
    });
  }

  /** The caller's role and the device-action rules it holds (`getrule`); the UI hides the rest. */
  rules(user: SessionUser): RuleList {
    return { role: user.role, rules: effectiveRules(user), all: [...operatorRules] };
  }

  private async get(ownerId: number, id: number): Promise<SubAccount> {
    const repo = new SubAccountRepository(this.db);
    const row = (await repo.findOwned(ownerId, id)) ?? notFound();
    const [item] = await this.withAreas(repo, [row]);
    return item ?? notFound();
  }

  private async withAreas(repo: SubAccountRepository, rows: SubAccountRow[]): Promise<SubAccount[]> {
    const areas = await repo.areasOf(rows.map((r) => r.id));
    return rows.map((row) => ({
      id: row.id,
      username: row.username,
      nickname: row.nickname,
      mobile: row.mobile,
      email: row.email,
      last_login_ip: row.last_login_ip,
      created_at: Number(row.created_at),
      status: row.status === 1 ? 'enabled' : 'disabled',
      last_login_at: row.last_login_at === null ? null : Number(row.last_login_at),
      authority: row.authority === 'administrator' ? 'administrator' : 'operator',
      areas: areas.filter((a) => a.user_id === row.id).map((a) => ({ id: a.id, area_name: a.area_name })),
      rules: row.authority === 'administrator' ? [] : parseRules(row.rules),
    }));
  }

  /**
   * Usernames are unique among all accounts (they are login names); email and phone among the
   * accounts of one master (spec §5 "duplicate email or phone is rejected", per tenant so that a
   * refusal never reveals another master's accounts).
   */
  private async checkUnique(
    repo: SubAccountRepository,
    users: UserRepository,
    body: { username?: string; email?: string; mobile?: string },
    exceptId: number,
    ownerId: number,
  ): Promise<void> {
    if (body.username !== undefined && (await repo.usernameTaken(body.username, exceptId)))
      throw fieldConflict('username', 'api.usernameTaken');
    if (body.email !== undefined && (await users.emailTaken(body.email, exceptId, ownerId)))
      throw fieldConflict('email', 'api.duplicateEmail');
    if (body.mobile !== undefined && (await users.mobileTaken(body.mobile, exceptId, ownerId)))
      throw fieldConflict('mobile', 'api.duplicatePhone');
  }

  /**
   * The mines without repeats, when every one is the master's own; another account's mine answers
   * "not found".
   */
  private async checkAreas(repo: SubAccountRepository, ownerId: number, areaIds: number[]) {
    const unique = [...new Set(areaIds)];
    if ((await repo.countOwnedAreas(ownerId, unique)) !== unique.length) notFound();
    return unique;
  }

  private async transaction<T>(work: (repo: SubAccountRepository, users: UserRepository) => Promise<T>) {
    try {
      return await this.db
        .transaction()
        .execute((trx) => work(new SubAccountRepository(trx), new UserRepository(trx)));
    } catch (error) {
      // Two requests racing for one username, email or phone: the unique indexes decide.
      throw accountConflict(error) ?? error;
    }
  }
}
