import {
  type Area,
  Code,
  type ElectricityPriceAddBody,
  type ElectricityPriceDeleteBody,
  type ElectricityPriceItem,
} from '@fbox/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { ApiError, fieldConflict, fieldInvalid } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import type { AreaService } from '../area/area.service.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { ElectricityPriceRepository } from './electricity-price.repository.js';

export interface PriceList {
  items: ElectricityPriceItem[];
  current: number;
}

/**
 * A mine's electricity price history (issue 14): each price holds from its `valid_from` until the
 * next one's. The mine's `areas.electricity_price` is kept equal to the price valid now, so every
 * other reader of the price (the mine form, the electricity page) keeps working. A new mine starts
 * with its price valid from 0; an edit of the price in the mine form adds a price valid from then.
 */
/** The prices in force during `[from, to)` of a mine's prices (oldest first); the earliest also covers before it. */
export const pricesInForce = (
  all: readonly { valid_from: number; price: number }[],
  from: number,
  to: number,
): { valid_from: number; price: number }[] =>
  all
    .map((p, i) => ({
      valid_from: i === 0 ? 0 : p.valid_from,
      price: p.price,
      until: i + 1 < all.length ? all[i + 1]!.valid_from : Number.POSITIVE_INFINITY,
    }))
    .filter((p) => p.valid_from < to && p.until > from)
    .map((p) => ({ valid_from: p.valid_from, price: p.price }));

export class ElectricityPriceService {
  constructor(
    private readonly deps: { db: Kysely<DB>; dialect: Dialect; clock: Clock; areas: AreaService },
  ) {}

  private repo(db: Kysely<DB> | Transaction<DB>) {
    return new ElectricityPriceRepository(db, this.deps.dialect);
  }

  async list(user: AreaCaller, areaId: number): Promise<PriceList> {
    await this.deps.areas.requireAccess(user, areaId);
    return this.listOf(this.repo(this.deps.db), areaId);
  }

  /**
   * Adds a price from `valid_from` (now or earlier: a price cannot start in the future, since the
   * mine's current price would then have to change by itself). A second price from the same instant
   * is refused on `valid_from`.
   */
  async add(user: AreaCaller, body: ElectricityPriceAddBody): Promise<PriceList> {
    await this.deps.areas.requireAccess(user, body.area_id);
    const now = this.deps.clock();
    if (body.valid_from > now) throw fieldInvalid('valid_from', 'rule.priceInFuture');
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        const repo = this.repo(trx);
        await repo.insert({
          area_id: body.area_id,
          valid_from: body.valid_from,
          price: body.price,
          created_by: user.id,
          created_at: now,
        });
        await this.syncCurrent(repo, body.area_id, now);
        return this.listOf(repo, body.area_id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw fieldConflict('valid_from', 'api.priceDateTaken');
      throw error;
    }
  }

  /** Deletes one price; the mine's only price stays (a mine always has a price). */
  async delete(user: AreaCaller, body: ElectricityPriceDeleteBody): Promise<PriceList> {
    await this.deps.areas.requireAccess(user, body.area_id);
    return this.deps.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const starts = await repo.startsLocked(body.area_id);
      if (!starts.includes(body.valid_from)) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
      if (starts.length === 1) throw new ApiError(Code.CONFLICT, 'api.lastPrice');
      await repo.delete(body.area_id, body.valid_from);
      await this.syncCurrent(repo, body.area_id, this.deps.clock());
      return this.listOf(repo, body.area_id);
    });
  }

  /** A new mine's first price, valid from 0 (in the creating transaction). */
  async onMineCreated(trx: Transaction<DB>, mine: Area): Promise<void> {
    const repo = this.repo(trx);
    const row = await repo.mine(mine.id);
    await repo.insert({
      area_id: mine.id,
      valid_from: 0,
      price: row.electricity_price,
      created_by: null,
      created_at: row.created_at,
    });
  }

  /**
   * The mine form changed the price (`areas.electricity_price` is already the new one): the history
   * gets it from now on, unless the price valid now is already that.
   */
  async onPriceEdited(trx: Transaction<DB>, areaId: number, price: number, userId: number): Promise<void> {
    const now = this.deps.clock();
    const repo = this.repo(trx);
    if ((await repo.validAt(areaId, now)) === price) return;
    await repo.upsert({ area_id: areaId, valid_from: now, price, created_by: userId, created_at: now });
  }

  /** The mine's prices, newest first, with the one valid now. */
  private async listOf(repo: ElectricityPriceRepository, areaId: number): Promise<PriceList> {
    return { items: await repo.list(areaId), current: (await repo.mine(areaId)).electricity_price };
  }

  /** Makes the mine's `electricity_price` the price valid now. */
  private async syncCurrent(repo: ElectricityPriceRepository, areaId: number, now: number): Promise<void> {
    const price = await repo.validAt(areaId, now);
    if (price !== null) await repo.setCurrent(areaId, price);
  }
}
