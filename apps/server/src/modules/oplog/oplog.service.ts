import {
  Code,
  type Language,
  type OplogEntry,
  type OplogExportQuery,
  type OplogListQuery,
  type OplogUser,
  type SharedMessageKey,
  sharedEn,
  translate,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { Insertable } from 'kysely';
import { ApiError } from '../../lib/api-error.js';
import type { SessionUser } from '../auth/auth.service.js';
import { type OplogFilter, OplogRepository, type OplogRow, type OplogScope } from './oplog.repository.js';
import type { OperationLogTable } from './oplog.schema.js';

type Reader = Pick<SessionUser, 'id' | 'role' | 'masterId' | 'isMaster' | 'parentId' | 'area'>;

const isKey = (value: unknown): value is SharedMessageKey => typeof value === 'string' && value in sharedEn;

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * A stored message in the reader's language. Parameters that are message keys themselves (the
 * field and rule of a validation failure) are translated first.
 */
export const localizeMessage = (lang: Language, key: string, paramsJson: string): string => {
  if (!isKey(key)) return key;
  const raw = (parseJson(paramsJson) ?? {}) as Record<string, string | number>;
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(raw))
    params[name] = isKey(value) ? translate(lang, value, raw) : value;
  return translate(lang, key, params);
};

/**
 * The operation log: records state-changing calls (see oplog.recorder.ts) and reads them back.
 * Read scope: a master sees the records of its account (its own and its sub-accounts'); an
 * administrator sees every record in the mines it manages plus its own; an operator sees only its
 * own. Filters naming a user or mine outside that scope answer "not found".
 */
export class OplogService {
  constructor(private readonly app: FastifyInstance) {}

  private get repo() {
    return new OplogRepository(this.app.db);
  }

  /** Appends one record. */
  record(row: Insertable<OperationLogTable>): Promise<void> {
    return this.repo.insert(row);
  }

  /** Who a login names (for the record of a login, whose caller has no session yet). */
  findLoginUser(username: string) {
    return this.repo.findLoginUser(username);
  }

  scopeOf(user: Reader): OplogScope {
    if (user.role === 'master') return { kind: 'master', masterId: user.id };
    if (user.role === 'administrator')
      return { kind: 'administrator', masterId: user.masterId, userId: user.id };
    return { kind: 'own', userId: user.id };
  }

  /** The filters after checking that the user and mine they name are within the reader's scope. */
  private async checkedFilter(user: Reader, q: OplogFilter): Promise<OplogFilter> {
    const scope = this.scopeOf(user);
    if (q.mine_id !== undefined) await this.app.areas.requireAccess(user, q.mine_id);
    if (q.user_id !== undefined && q.user_id !== user.id) {
      const visible =
        scope.kind !== 'own' &&
        ((await this.repo.inAccount(user.masterId, q.user_id)) ||
          (await this.repo.hasRecordsOf(scope, q.user_id)));
      if (!visible) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    }
    return {
      user_id: q.user_id,
      action: q.action,
      mine_id: q.mine_id,
      outcome: q.outcome,
      from: q.from,
      to: q.to,
    };
  }

  entryOf(row: OplogRow, lang: Language): OplogEntry {
    return {
      id: row.id,
      at: row.at,
      user_id: row.user_id,
      username: row.username,
      ip: row.ip,
      area_id: row.area_id,
      area_name: row.area_name,
      action: row.action,
      path: row.path,
      target: row.target,
      params: parseJson(row.params),
      outcome: row.code === Code.OK ? 'success' : 'failed',
      code: row.code,
      message: localizeMessage(lang, row.message_key, row.message_params),
    };
  }

  /** A page of the reader's records, newest first. */
  async list(user: Reader, q: OplogListQuery, lang: Language) {
    const filter = await this.checkedFilter(user, q);
    const { items, total } = await this.repo.page(this.scopeOf(user), filter, q.page, q.limit);
    return { items: items.map((row) => this.entryOf(row, lang)), total, page: q.page, limit: q.limit };
  }

  /** Every matching record in pages, for the CSV export (scope checked before the first row). */
  async exportPages(user: Reader, q: OplogExportQuery) {
    const filter = await this.checkedFilter(user, q);
    return this.repo.all(this.scopeOf(user), filter);
  }

  /** The users appearing in the reader's records, for the user filter. */
  async users(user: Reader): Promise<OplogUser[]> {
    const rows = await this.repo.users(this.scopeOf(user));
    return rows.map((r) => ({ id: r.user_id, username: r.username }));
  }
}
