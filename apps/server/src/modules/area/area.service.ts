import { type Area, type AreaCreateBody, type AreaEditBody, Code, canManage, limits } from '@fbox/contracts';
import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { AreaRepository } from './area.repository.js';

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
  constructor(
    private readonly db: Kysely<DB>,
    private readonly clock: Clock,
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

  async create(ownerId: number, body: AreaCreateBody): Promise<Area> {
    const repo = new AreaRepository(this.db);
    if (await repo.nameTaken(ownerId, body.area_name)) throw new ApiError(Code.CONFLICT, 'api.areaNameTaken');
    try {
      return await repo.insert(
        ownerId,
        body.area_name,
        body.electricity_hz ?? limits.defaultElectricityHz,
        this.clock(),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(Code.CONFLICT, 'api.areaNameTaken');
      throw error;
    }
  }

  async edit(ownerId: number, body: AreaEditBody): Promise<Area> {
    const repo = new AreaRepository(this.db);
    const area = await repo.findOwned(ownerId, body.id);
    if (!area) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    if (body.area_name !== undefined && (await repo.nameTaken(ownerId, body.area_name, body.id))) {
      throw new ApiError(Code.CONFLICT, 'api.areaNameTaken');
    }
    const values = {
      ...(body.area_name !== undefined && { area_name: body.area_name }),
      ...(body.electricity_hz !== undefined && { electricity_hz: body.electricity_hz }),
    };
    try {
      await repo.update(body.id, values, this.clock());
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError(Code.CONFLICT, 'api.areaNameTaken');
      throw error;
    }
    return { ...area, ...values };
  }

  async delete(ownerId: number, id: number): Promise<void> {
    if (!(await new AreaRepository(this.db).delete(ownerId, id)))
      throw new ApiError(Code.NOT_FOUND, 'api.notFound');
  }
}
