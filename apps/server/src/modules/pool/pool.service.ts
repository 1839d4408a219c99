import type {
  ObserverLink,
  ObserverLinkCreateBody,
  ObserverLinkListQuery,
  PoolSubaccount,
  PoolSubaccountListBody,
  PoolSubaccountSaveBody,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { Selectable } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import { fieldConflict } from '../../lib/api-error.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound, requireManage } from '../device-access.js';
import { PoolRepository, type PoolSubaccountRow, type PoolSubaccountValues } from './pool.repository.js';
import type { PoolSyncStatesTable } from './pool.schema.js';
import { PoolSyncRepository } from './pool-sync.repository.js';

type PoolDeps = Pick<FastifyInstance, 'db' | 'clock' | 'areas' | 'secrets'>;

const subaccountTaken = () => fieldConflict('subaccount', 'api.poolSubaccountTaken');

const toSubaccount = (r: PoolSubaccountRow, sync?: Selectable<PoolSyncStatesTable>): PoolSubaccount => ({
  id: r.id,
  area_id: r.area_id,
  pool: r.pool,
  subaccount: r.subaccount,
  coin: r.coin,
  observer_url: r.observer_url,
  has_api_key: Number(r.has_api_key) === 1,
  has_api_secret: Number(r.has_api_secret) === 1,
  created_at: r.created_at,
  updated_at: r.updated_at,
  sync: sync
    ? {
        status: sync.status,
        last_attempt_at: sync.last_attempt_at,
        last_success_at: sync.last_success_at,
        last_error: sync.last_error,
        next_attempt_at: sync.next_attempt_at,
      }
    : null,
});

/**
 * A secret as a save writes it: a new value, `null` to remove it, `undefined` to keep what is
 * stored (an empty field in the form means "leave it").
 */
const secretChange = (value: string | undefined, clear: boolean | undefined): string | null | undefined => {
  if (clear) return null;
  return value ? value : undefined;
};

/**
 * Mining pools of a mine: observer links (`fbox.pool`) and pool subaccounts (`admin/area/pool`).
 * Everyone who may see the mine reads them; masters and administrators change them. Ids of another
 * mine answer "not found". Subaccount secrets go in and never come out: answers say only whether
 * one is stored.
 */
export class PoolService {
  constructor(private readonly deps: PoolDeps) {}

  private repo() {
    return new PoolRepository(this.deps.db);
  }

  async listLinks(user: AreaCaller, q: ObserverLinkListQuery) {
    await this.deps.areas.requireAccess(user, q.area_id);
    const { items, total } = await this.repo().listLinks(q);
    return { items, total, page: q.page, limit: q.limit };
  }

  async createLink(user: AreaCaller, body: ObserverLinkCreateBody): Promise<ObserverLink> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    return this.repo().insertLink({
      area_id: body.area_id,
      pool: body.pool,
      subaccount: body.subaccount,
      coin: body.coin,
      link: body.link,
      created_at: this.deps.clock(),
    });
  }

  async deleteLink(user: AreaCaller, areaId: number, id: number): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    if (!(await this.repo().deleteLink(areaId, id))) notFound();
  }

  async listSubaccounts(user: AreaCaller, q: PoolSubaccountListBody) {
    await this.deps.areas.requireAccess(user, q.area_id);
    const { items, total } = await this.repo().listSubaccounts(q);
    const syncs = await new PoolSyncRepository(this.deps.db).statesOf(items.map((i) => i.id));
    return { items: items.map((i) => toSubaccount(i, syncs.get(i.id))), total, page: q.page, limit: q.limit };
  }

  /** Creates a pool subaccount, or updates the one `body.id` names (see the contract for secrets). */
  async saveSubaccount(user: AreaCaller, body: PoolSubaccountSaveBody): Promise<PoolSubaccount> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const repo = this.repo();
    const values: PoolSubaccountValues = {
      pool: body.pool,
      subaccount: body.subaccount,
      coin: body.coin,
      observer_url: body.observer_url ?? '',
      api_key: this.sealed(secretChange(body.api_key, body.clear_api_key)),
      api_secret: this.sealed(secretChange(body.api_secret, body.clear_api_secret)),
    };
    if (body.id !== undefined && !(await repo.findSubaccount(body.area_id, body.id))) notFound();
    if (await repo.subaccountTaken(body.area_id, values, body.id)) throw subaccountTaken();
    const now = this.deps.clock();
    let id = body.id;
    try {
      if (id === undefined) id = await repo.insertSubaccount(body.area_id, values, now);
      else if (!(await repo.updateSubaccount(body.area_id, id, values, now))) notFound();
    } catch (error) {
      if (isUniqueViolation(error)) throw subaccountTaken();
      throw error;
    }
    const saved = (await repo.findSubaccount(body.area_id, id!)) ?? notFound();
    // A changed pool, name or key is read at the next run, not after a failure's backoff.
    const sync = new PoolSyncRepository(this.deps.db);
    await sync.makeDue(id!, now);
    return toSubaccount(saved, await sync.stateOf(id!));
  }

  async removeSubaccount(user: AreaCaller, areaId: number, id: number): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    if (!(await this.repo().deleteSubaccount(areaId, id))) notFound();
  }

  /**
   * The stored credentials of a mine's pool subaccounts, for server-side use (revenue statistics).
   * Never hand this to an HTTP answer.
   */
  async credentials(areaId: number) {
    const rows = await this.repo().credentials(areaId);
    const open = (v: string | null) => (v === null ? null : this.deps.secrets.open(v));
    return rows.map((r) => ({ ...r, api_key: open(r.api_key), api_secret: open(r.api_secret) }));
  }

  /** A new secret sealed for storage (encrypted at rest); null and undefined as they are. */
  private sealed(change: string | null | undefined): string | null | undefined {
    return change ? this.deps.secrets.seal(change) : change;
  }
}
