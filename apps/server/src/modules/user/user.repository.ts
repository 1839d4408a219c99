import type { Kysely, Updateable } from 'kysely';
import type { DB, UsersTable } from '../../db/schema.js';

/** Defaults of a new account's settings (time zone UTC+8, as the deployed system's users expect). */
export const userDefaults = {
  time_zone: 'UTC+8',
  headimg: 1,
  global_config: JSON.stringify({ delay_switch_value: 0 }),
  alert_send_level: JSON.stringify({ 1: 1, 2: 1, 3: 0 }),
  channel: JSON.stringify({ status: 0, value: [] }),
  sms_times: 100,
} as const;

export interface NewUser {
  username: string;
  password_hash: string;
  is_master: boolean;
  parent_id?: number | null;
  nickname?: string;
  email?: string;
  mobile?: string;
}

/** Kysely queries for user profiles and settings. */
export class UserRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findById(id: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The account's time zone (`UTC+8`), for times in exports. */
  async timeZone(id: number): Promise<string | undefined> {
    const row = await this.db.selectFrom('users').select('time_zone').where('id', '=', id).executeTakeFirst();
    return row?.time_zone;
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async create(user: NewUser, now: number): Promise<number> {
    const row = await this.db
      .insertInto('users')
      .values({
        username: user.username,
        password_hash: user.password_hash,
        is_master: user.is_master ? 1 : 0,
        parent_id: user.parent_id ?? null,
        nickname: user.nickname ?? user.username,
        email: user.email ?? '',
        mobile: user.mobile ?? '',
        time_zone: userDefaults.time_zone,
        headimg: userDefaults.headimg,
        global_config: userDefaults.global_config,
        alert_send_level: userDefaults.alert_send_level,
        email_send: userDefaults.channel,
        sms_send: userDefaults.channel,
        teams_send: userDefaults.channel,
        telegram_send: userDefaults.channel,
        sms_times: userDefaults.sms_times,
        status: 1,
        auto_frequency: 0,
        auto_frequency_min: 0,
        auto_frequency_max: 0,
        pool_locked: 0,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /**
   * Whether another account of the tenant (master `masterId` and its sub-accounts) already uses this
   * email (compared case-insensitively). Other tenants are not looked at: their accounts must not be
   * revealed by a refusal (see docs/api.md, "Uniqueness").
   */
  async emailTaken(email: string, exceptUserId: number, masterId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('id', '<>', exceptUserId)
      .where((eb) => eb.or([eb('id', '=', masterId), eb('parent_id', '=', masterId)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Whether another account of the tenant already uses this phone (see `emailTaken`). */
  async mobileTaken(mobile: string, exceptUserId: number, masterId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', mobile)
      .where('id', '<>', exceptUserId)
      .where((eb) => eb.or([eb('id', '=', masterId), eb('parent_id', '=', masterId)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(id: number, values: Updateable<UsersTable>): Promise<void> {
    await this.db.updateTable('users').set(values).where('id', '=', id).execute();
  }
}
