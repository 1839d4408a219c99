import {
  type Caller,
  Code,
  type LoginBody,
  type OperatorRule,
  operatorRules,
  type Role,
  type TotpSetupData,
} from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import { refuseCommonPassword } from '../../lib/common-passwords.js';
import { dummyVerify, hashPassword, verifyPassword } from '../../lib/password.js';
import type { SecretBox } from '../../lib/secret-box.js';
import { hashToken, newToken } from '../../lib/tokens.js';
import { newTotpSecret, otpauthUrl, verifyTotp } from '../../lib/totp.js';
import { AuthRepository, type LiveSession } from './auth.repository.js';
import { accountRule, ipRule, type LimitKey, LoginLimiter, pairRule } from './login-limit.js';
import { SessionCache } from './session-cache.js';

/** An area the caller may see, read together with the session (see `AuthService.authenticate`). */
export interface ScopedArea {
  id: number;
  area_name: string;
  electricity_hz: number;
  owner_id: number;
}

/** The signed-in caller of a request. */
export interface SessionUser extends Caller {
  id: number;
  username: string;
  isMaster: boolean;
  /** Master account of a sub-account; null for masters. */
  parentId: number | null;
  /** The master account whose mines these are: the user itself for a master. */
  masterId: number;
  sessionId: number;
  /** The request's `area_id` when the caller may see it, looked up with the session. */
  area?: ScopedArea | null;
}

/** What area-scoped services need to know about the caller. */
export type AreaCaller = Pick<SessionUser, 'id' | 'isMaster' | 'parentId' | 'role' | 'area'>;

/** A stored rule list, keeping only rules that still exist. */
export const parseRules = (text: string): OperatorRule[] => {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? operatorRules.filter((r) => value.includes(r)) : [];
  } catch {
    return [];
  }
};

/** The role of a user row: masters are masters; a sub-account is an operator unless made administrator. */
export const roleOf = (row: { is_master: number; authority: string }): Role =>
  row.is_master === 1 ? 'master' : row.authority === 'administrator' ? 'administrator' : 'operator';

export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/** Sliding expiry is written at most once a minute so reads do not each cost a write. */
const TOUCH_INTERVAL_MS = 60_000;
/** How long a resolved session may be reused at most (see SessionCache). */
const SESSION_CACHE_MS = 2_000;
const TOTP_ISSUER = 'FBOX Cloud';

/**
 * Sessions, login (with rate limit and TOTP), logout, password change and TOTP enrolment.
 * Failures are `ApiError`s carrying the envelope code and message key.
 */
export class AuthService {
  private readonly repo: AuthRepository;
  private readonly limiter: LoginLimiter;
  /** Resolved sessions; kept only while `sessionsChanged` reaches every process (see auth.plugin). */
  readonly sessions: SessionCache<LiveSession>;
  /** Tells the other processes that sessions may have changed (set by the plugin on PostgreSQL). */
  broadcast: (() => Promise<void>) | undefined;

  private readonly sessionMaxMs: number;

  /**
   * @param sessionTtlMs sliding lifetime: a session unused this long ends.
   * @param options.sessionMaxMs absolute lifetime: a session ends this long after login, used or
   *   not (ASVS 3.3.2); no bound when left out.
   */
  constructor(
    db: Kysely<DB>,
    private readonly clock: Clock,
    private readonly sessionTtlMs: number,
    options: { cacheSessions: boolean; sessionMaxMs?: number },
    /** TOTP secrets are stored sealed (encrypted at rest). */
    private readonly secrets: SecretBox,
  ) {
    this.sessionMaxMs = options.sessionMaxMs ?? Number.MAX_SAFE_INTEGER;
    this.repo = new AuthRepository(db);
    this.limiter = new LoginLimiter(db);
    this.sessions = new SessionCache(SESSION_CACHE_MS, options.cacheSessions);
  }

  /**
   * Something that may change a session, its user, role, rules or mines happened: resolved
   * sessions are looked up afresh here and in every other process.
   */
  async sessionsChanged(): Promise<void> {
    this.sessions.clear();
    await this.broadcast?.();
  }

  /** Checks the credentials and opens a session; returns the token (only its hash is stored). */
  async login(body: LoginBody, client: ClientInfo): Promise<string> {
    const now = this.clock();
    const account = body.username.toLowerCase();
    const ip = client.ip ?? 'unknown';
    // The pair first: an address it locks out is refused before it counts anywhere else.
    const keys: LimitKey[] = [
      { key: `pair:${ip}|${account}`, rule: pairRule },
      { key: `ip:${ip}`, rule: ipRule },
      { key: `account:${account}`, rule: accountRule },
    ];
    const lockedMs = await this.limiter.reserve(keys, now);
    if (lockedMs > 0) {
      const retryAfter = Math.ceil(lockedMs / 1000);
      throw new ApiError(Code.RATE_LIMITED, 'api.rateLimited', { seconds: retryAfter }, { retryAfter });
    }
    // A failure keeps the attempt it reserved. Wrong password, unknown user, disabled account and a
    // wrong or missing code all answer alike, so the answer does not tell which part was right.
    const fail = (): never => {
      throw new ApiError(Code.LOGIN_FAILED, 'api.loginFailed');
    };

    const user = await this.repo.findUserByUsername(body.username);
    const passwordOk = user
      ? await verifyPassword(user.password_hash, body.password)
      : await dummyVerify(body.password);
    if (!user || !passwordOk || user.status !== 1) return fail();
    if (user.totp_secret) {
      const step = verifyTotp(this.secrets.open(user.totp_secret), body.googleCode, now, user.totp_last_step);
      if (step === null || !(await this.repo.claimTotpStep(user.id, step))) return fail();
    }

    await this.limiter.clear(keys[0]!.key);
    await this.limiter.release([keys[1]!.key, keys[2]!.key]);
    const token = newToken();
    await this.repo.createSession({
      user_id: user.id,
      token_hash: hashToken(token),
      now,
      expires_at: now + Math.min(this.sessionTtlMs, this.sessionMaxMs),
      ip: client.ip,
      user_agent: client.userAgent?.slice(0, 512) ?? null,
    });
    await this.repo.recordLogin(user.id, now, client.ip);
    return token;
  }

  /**
   * The session's user, or null when the token is unknown, expired, revoked or the user disabled.
   * With `areaId` the user's `area` is that area when the user may see it, else null.
   */
  async authenticate(token: string | undefined, areaId?: number): Promise<SessionUser | null> {
    if (!token || token.length > 200) return null;
    const now = this.clock();
    const tokenHash = hashToken(token);
    const key = `${tokenHash}|${areaId ?? ''}`;
    let row = this.sessions.get(key, now);
    if (!row) {
      const generation = this.sessions.generation;
      row = await this.repo.findLiveSession(tokenHash, now, areaId);
      if (!row) return null;
      this.sessions.set(key, row, now, generation);
    }
    // Sliding expiry never passes the absolute end; checked here too so a cached session or one
    // stored before the bound was set cannot outlive it.
    const endsAt = Number(row.created_at) + this.sessionMaxMs;
    if (now >= endsAt) return null;
    if (now - row.last_seen_at >= TOUCH_INTERVAL_MS) {
      const expiresAt = Math.min(now + this.sessionTtlMs, endsAt);
      await this.repo.touchSession(row.session_id, now, expiresAt);
      row.last_seen_at = now;
      row.expires_at = expiresAt;
    }
    return {
      id: row.user_id,
      username: row.username,
      isMaster: row.is_master === 1,
      parentId: row.parent_id,
      masterId: row.is_master === 1 ? row.user_id : (row.parent_id ?? -1),
      role: roleOf(row),
      rules: parseRules(row.rules),
      sessionId: row.session_id,
      ...(areaId !== undefined && {
        area:
          row.area_id === null
            ? null
            : {
                id: row.area_id,
                area_name: row.area_name ?? '',
                electricity_hz: row.electricity_hz ?? 50,
                owner_id: row.area_owner_id ?? -1,
              },
      }),
    };
  }

  async logout(user: SessionUser): Promise<void> {
    await this.repo.revokeSession(user.sessionId, this.clock());
    await this.sessionsChanged();
  }

  /** Changes the password and ends every session of the user, this one included. */
  async changePassword(user: SessionUser, oldPassword: string, newPassword: string): Promise<void> {
    const row = await this.repo.findUserById(user.id);
    if (!row || !(await verifyPassword(row.password_hash, oldPassword))) {
      throw new ApiError(Code.VALIDATION, 'api.oldPasswordWrong', undefined, {
        errors: [{ field: 'oldpassword', rule: 'api.oldPasswordWrong' }],
      });
    }
    await refuseCommonPassword(newPassword);
    const now = this.clock();
    await this.repo.setPasswordHash(user.id, await hashPassword(newPassword), now);
    await this.repo.revokeUserSessions(user.id, now);
    await this.sessionsChanged();
  }

  /** Starts TOTP enrolment with a new pending secret; the old one stays active until confirmed. */
  async totpSetup(user: SessionUser): Promise<TotpSetupData> {
    const row = await this.repo.findUserById(user.id);
    if (row?.totp_secret) throw new ApiError(Code.CONFLICT, 'api.totpAlreadyEnabled');
    const secret = newTotpSecret();
    await this.repo.setTotp(user.id, { totp_pending_secret: this.secrets.seal(secret) }, this.clock());
    return { secret, otpauth_url: otpauthUrl(TOTP_ISSUER, user.username, secret) };
  }

  /** Confirms enrolment with a code of the pending secret; that code is then spent. */
  async totpEnable(user: SessionUser, code: string): Promise<void> {
    const row = await this.repo.findUserById(user.id);
    if (row?.totp_secret) throw new ApiError(Code.CONFLICT, 'api.totpAlreadyEnabled');
    if (!row?.totp_pending_secret) throw new ApiError(Code.CONFLICT, 'api.totpNotPending');
    const now = this.clock();
    const step = verifyTotp(this.secrets.open(row.totp_pending_secret), code, now, null);
    if (step === null) throw new ApiError(Code.TOTP_INVALID, 'api.totpInvalid');
    await this.repo.setTotp(
      user.id,
      { totp_secret: row.totp_pending_secret, totp_pending_secret: null, totp_last_step: step },
      now,
    );
  }

  /** Turns TOTP off; needs a current, unused code so a stolen session alone cannot do it. */
  async totpDisable(user: SessionUser, code: string): Promise<void> {
    const row = await this.repo.findUserById(user.id);
    if (!row?.totp_secret) throw new ApiError(Code.CONFLICT, 'api.totpNotEnabled');
    const now = this.clock();
    const step = verifyTotp(this.secrets.open(row.totp_secret), code, now, row.totp_last_step);
    if (step === null || !(await this.repo.claimTotpStep(user.id, step))) {
      throw new ApiError(Code.TOTP_INVALID, 'api.totpInvalid');
    }
    await this.repo.setTotp(
      user.id,
      { totp_secret: null, totp_pending_secret: null, totp_last_step: null },
      now,
    );
  }
}
