import type { Kysely } from 'kysely';
import { QueryTemplates } from '../../db/query-template.js';
import type { DB } from '../../db/schema.js';

/** Every request looks its session up: that query is built once (see QueryTemplates). */
const templates = new QueryTemplates(4);

/** A live session with its user and the requested mine (see `findLiveSession`). */
export type LiveSession = NonNullable<Awaited<ReturnType<AuthRepository['findLiveSession']>>>;

/** Kysely queries for sessions and the credentials part of users. */
export class AuthRepository {
  constructor(private readonly db: Kysely<DB>) {}

  findUserByUsername(username: string) {
    return this.db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst();
  }

  findUserById(id: number) {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async createSession(row: {
    user_id: number;
    token_hash: string;
    now: number;
    expires_at: number;
    ip: string | null;
    user_agent: string | null;
  }): Promise<void> {
    const { now, ...rest } = row;
    await this.db
      .insertInto('sessions')
      .values({ ...rest, created_at: now, last_seen_at: now })
      .execute();
  }

  /**
   * A live session with its (active) user, or undefined. With `areaId`, the same query also
   * returns that area when the user may see it (a master owns it; a sub-account manages it for its
   * master), so an area-scoped request costs one query for both checks.
   */
  async findLiveSession(tokenHash: string, now: number, areaId?: number) {
    const values = { tokenHash, now, areaId: areaId ?? -1 };
    const [row] = await templates.execute(this.db, 'live-session', values, (v) => this.liveSession(v));
    return row;
  }

  private liveSession(v: { tokenHash: string; now: number; areaId: number }) {
    return this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .leftJoin('areas', (join) =>
        join.on((eb) =>
          eb.and([
            eb('areas.id', '=', v.areaId),
            eb.or([
              eb.and([eb('users.is_master', '=', 1), eb('areas.owner_id', '=', eb.ref('users.id'))]),
              eb.and([
                eb('users.is_master', '=', 0),
                eb('areas.owner_id', '=', eb.ref('users.parent_id')),
                eb.exists(
                  eb
                    .selectFrom('user_areas')
                    .select('user_areas.area_id')
                    .whereRef('user_areas.user_id', '=', 'users.id')
                    .whereRef('user_areas.area_id', '=', 'areas.id'),
                ),
              ]),
            ]),
          ]),
        ),
      )
      .select([
        'sessions.id as session_id',
        'sessions.created_at',
        'sessions.last_seen_at',
        'sessions.expires_at',
        'users.id as user_id',
        'users.username',
        'users.is_master',
        'users.parent_id',
        'users.authority',
        'users.rules',
        'areas.id as area_id',
        'areas.area_name',
        'areas.electricity_hz',
        'areas.owner_id as area_owner_id',
      ])
      .where('sessions.token_hash', '=', v.tokenHash)
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', v.now)
      .where('users.status', '=', 1);
  }

  async touchSession(sessionId: number, now: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ last_seen_at: now, expires_at: expiresAt })
      .where('id', '=', sessionId)
      .execute();
  }

  async revokeSession(sessionId: number, now: number): Promise<void> {
    await this.db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).execute();
  }

  async revokeUserSessions(userId: number, now: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
  }

  async recordLogin(userId: number, now: number, ip: string | null): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ last_login_at: now, last_login_ip: ip })
      .where('id', '=', userId)
      .execute();
  }

  async setPasswordHash(userId: number, hash: string, now: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: hash, updated_at: now })
      .where('id', '=', userId)
      .execute();
  }

  async setTotp(
    userId: number,
    values: {
      totp_secret?: string | null;
      totp_pending_secret?: string | null;
      totp_last_step?: number | null;
    },
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ ...values, updated_at: now })
      .where('id', '=', userId)
      .execute();
  }

  /**
   * Marks a TOTP step as used if no equal or later step was used before. Returns false when another
   * request used it first, so a code cannot be replayed even by concurrent requests.
   */
  async claimTotpStep(userId: number, step: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set({ totp_last_step: step })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
