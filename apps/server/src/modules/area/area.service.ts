import {
  type Area,
  type AreaCreateBody,
  type AreaEditBody,
  Code,
  canManage,
  limits,
  mineLimits,
} from '@fbox/contracts';
import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { newAgentKey } from '../../lib/agent-key.js';
import { ApiError, fieldConflict } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import type { SecretBox } from '../../lib/secret-box.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { type AreaChanges, AreaRepository } from './area.repository.js';

/**
 * A new mine. Over HTTP the price is required (spec §5, the contract enforces it); internal callers
 * (bootstrap's demo mine, seed scripts, test factories) may leave it to the default.
 */
export type NewMine = Omit<AreaCreateBody, 'electricity_price'> & { electricity_price?: number };

/** Writes what a feature adds to a new mine (its defaults), in the transaction that creates it. */
export type MineCreateListener = (trx: Transaction<DB>, mine: Area) => Promise<void>;

/**
 * Writes what a feature keeps beside a mine's edited fields (the price history), in the transaction
 * that edits it; `changes` are the fields sent.
 */
export type MineEditListener = (
  trx: Transaction<DB>,
  areaId: number,
  changes: AreaChanges,
  user: AreaCaller,
) => Promise<void>;

/** An area the caller may act in (see `AreaService.requireAccess`). */
export interface AreaAccess extends Area {
  owner_id: number;
  canManage: boolean;
}

/**
 * Mines of a master account. Masters see and change the areas they own; sub-accounts see the areas
 * assigned to them. An id outside the caller's scope answers "not found", never "forbidden", so ids
 * of other accounts cannot be probed.
 */
export class AreaService {
  private readonly createListeners: MineCreateListener[] = [];
  private readonly editListeners: MineEditListener[] = [];

  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
    /** The Agent Key is stored sealed (encrypted at rest). */
    private readonly secrets: SecretBox,
  ) {}

  list(user: Pick<SessionUser, 'id' | 'isMaster'>): Promise<Area[]> {
    const repo = new AreaRepository(this.db);
    return user.isMaster ? repo.listOwned(user.id) : repo.listAssigned(user.id);
  }

  /**
   * The area a device call acts in, when the caller may see it: masters own it, sub-accounts manage
   * it. `canManage` is true for masters and administrators: they may change devices and see gateway
   * credentials; operators may only read and run the device actions their rules allow. The area the
   * session lookup already resolved (`user.area`) costs no query.
   * @throws ApiError NOT_FOUND for an area outside the caller's scope (ids cannot be probed).
   */
  async requireAccess(user: AreaCaller, areaId: number): Promise<AreaAccess> {
    const area =
      user.area?.id === areaId ? user.area : await new AreaRepository(this.db).findAccessible(user, areaId);
    if (!area) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    return { ...area, canManage: canManage(user) };
  }

  /**
   * Adds `listener` to what creating a mine writes: it runs inside the creating transaction, so a
   * mine never exists without what features give every mine (the alarm center's default rules).
   */
  onCreate(listener: MineCreateListener): void {
    this.createListeners.push(listener);
  }

  /** Adds `listener` to what editing a mine writes, in the editing transaction. */
  onEdit(listener: MineEditListener): void {
    this.editListeners.push(listener);
  }

  /** Creates a mine of a master with a fresh Agent Key, and what features add to every mine. */
  async create(ownerId: number, body: NewMine): Promise<Area> {
    const repo = new AreaRepository(this.db);
    if (await repo.nameTaken(ownerId, body.area_name)) throw fieldConflict('area_name', 'api.areaNameTaken');
    const mine = {
      ...body,
      electricity_hz: body.electricity_hz ?? limits.defaultElectricityHz,
      electricity_price: body.electricity_price ?? mineLimits.defaultElectricityPrice,
    };
    try {
      return await this.db.transaction().execute(async (trx) => {
        const area = await new AreaRepository(trx).insert(
          ownerId,
          mine,
          this.secrets.seal(newAgentKey()),
          this.clock(),
        );
        for (const listener of this.createListeners) await listener(trx, area);
        return area;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldConflict('area_name', 'api.areaNameTaken');
      throw error;
    }
  }

  /**
   * Changes the fields sent. Masters edit their mines, administrators the mines they manage (the
   * endpoint's `manage` permission keeps operators out); anything else is "not found".
   */
  async edit(user: AreaCaller, body: AreaEditBody): Promise<Area> {
    const repo = new AreaRepository(this.db);
    const area = await this.requireAccess(user, body.id);
    if (body.area_name !== undefined && (await repo.nameTaken(area.owner_id, body.area_name, body.id))) {
      throw fieldConflict('area_name', 'api.areaNameTaken');
    }
    const { id: _id, ...sent } = body;
    const values = Object.fromEntries(
      Object.entries(sent).filter(([, value]) => value !== undefined),
    ) as AreaChanges;
    try {
      if (this.editListeners.length === 0) await repo.update(body.id, values, this.clock());
      else
        await this.db.transaction().execute(async (trx) => {
          await new AreaRepository(trx).update(body.id, values, this.clock());
          for (const listener of this.editListeners) await listener(trx, body.id, values, user);
        });
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldConflict('area_name', 'api.areaNameTaken');
      throw error;
    }
    return {
      id: area.id,
      area_name: values.area_name ?? area.area_name,
      electricity_hz: values.electricity_hz ?? area.electricity_hz,
    };
  }

  async delete(ownerId: number, id: number): Promise<void> {
    if (!(await new AreaRepository(this.db).delete(ownerId, id)))
      throw new ApiError(Code.NOT_FOUND, 'api.notFound');
  }
}
