import { Code, type Language, type SetUserInfoBody, type UserInfo } from '@fbox/contracts';
import type { Kysely, Updateable } from 'kysely';
import { isUniqueViolation, uniqueIndexOf } from '../../db/errors.js';
import type { DB, UsersTable } from '../../db/schema.js';
import { ApiError, fieldConflict } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { hashPassword } from '../../lib/password.js';
import { type NewUser, UserRepository } from './user.repository.js';
import { pushColumns, toUserInfo } from './user-info.js';

/**
 * The answer to a lost race on a unique index of users (the services check first, so only a race
 * gets here): the field whose value another request took. Undefined for any other error.
 */
export const accountConflict = (error: unknown): ApiError | undefined => {
  if (!isUniqueViolation(error)) return undefined;
  const index = uniqueIndexOf(error);
  if (index === 'users_tenant_email') return fieldConflict('email', 'api.duplicateEmail');
  if (index === 'users_tenant_mobile') return fieldConflict('mobile', 'api.duplicatePhone');
  return fieldConflict('username', 'api.usernameTaken');
};

/** Profile, switches and push settings of the signed-in user (`fbox.user/getuserinfo`, `setuserinfo`). */
export class UserService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
  ) {}

  async getInfo(userId: number, lang: Language): Promise<UserInfo> {
    const row = await new UserRepository(this.db).findById(userId);
    if (!row) throw new ApiError(Code.NOT_LOGGED_IN, 'api.notLoggedIn');
    return toUserInfo(row, lang);
  }

  /**
   * Stores the fields present in the body, in one transaction: a rejected value (duplicate email or
   * phone, min above the stored max) leaves everything as it was.
   */
  async setInfo(userId: number, body: SetUserInfoBody, lang: Language): Promise<UserInfo> {
    await this.db
      .transaction()
      .execute(async (trx) => {
        const repo = new UserRepository(trx);
        const row = await repo.findById(userId);
        if (!row) throw new ApiError(Code.NOT_LOGGED_IN, 'api.notLoggedIn');
        const values: Updateable<UsersTable> = {};
        const masterId = row.is_master === 1 ? row.id : (row.parent_id ?? row.id);
        if (body.nickname !== undefined) values.nickname = body.nickname;
        if (body.email !== undefined) {
          if (await repo.emailTaken(body.email, userId, masterId))
            throw new ApiError(Code.CONFLICT, 'api.duplicateEmail');
          values.email = body.email;
        }
        if (body.mobile !== undefined) {
          if (await repo.mobileTaken(body.mobile, userId, masterId))
            throw new ApiError(Code.CONFLICT, 'api.duplicatePhone');
          values.mobile = body.mobile;
        }
        if (body.time_zone !== undefined) values.time_zone = body.time_zone;
        if (body.headimg !== undefined) values.headimg = body.headimg;
        if (body.auto_frequency !== undefined) values.auto_frequency = body.auto_frequency === 'on' ? 1 : 0;
        if (body.pool_config_status !== undefined)
          values.pool_locked = body.pool_config_status === 'on' ? 1 : 0;
        const min = body.min ?? row.auto_frequency_min;
        const max = body.max ?? row.auto_frequency_max;
        if ((body.min !== undefined || body.max !== undefined) && min > max) {
          throw new ApiError(Code.VALIDATION, 'api.validation', undefined, {
            errors: [{ field: body.min !== undefined ? 'min' : 'max', rule: 'rule.minNotAboveMax' }],
          });
        }
        if (body.min !== undefined) values.auto_frequency_min = body.min;
        if (body.max !== undefined) values.auto_frequency_max = body.max;
        if (body.delay_switch_value !== undefined) {
          values.global_config = JSON.stringify({ delay_switch_value: body.delay_switch_value });
        }
        if (body.pushContent !== undefined) Object.assign(values, pushColumns(body.pushContent));
        if (Object.keys(values).length === 0) return;
        await repo.update(userId, { ...values, updated_at: this.clock() });
      })
      .catch((error: unknown) => {
        throw accountConflict(error) ?? error;
      });
    return this.getInfo(userId, lang);
  }

  /** Creates an account with a hashed password; used by first start and by tests' factories. */
  async create(user: Omit<NewUser, 'password_hash'> & { password: string }): Promise<number> {
    const { password, ...rest } = user;
    return new UserRepository(this.db).create(
      { ...rest, password_hash: await hashPassword(password) },
      this.clock(),
    );
  }

  count(): Promise<number> {
    return new UserRepository(this.db).count();
  }
}
