import type { ElectricityPriceItem } from '@fbox/contracts';
import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';

/** A mine's electricity prices (migration 0022) and its current price. Kysely only. */
export class ElectricityPriceRepository {
  constructor(
    private readonly db: Kysely<DB> | Transaction<DB>,
    private readonly dialect: Dialect,
  ) {}

  async insert(row: {
    area_id: number;
    valid_from: number;
    price: number;
    created_by: number | null;
    created_at: number;
  }) {
    await this.db.insertInto('electricity_prices').values(row).execute();
  }

  /** Sets the price from `valid_from`, replacing one from the same instant. */
  async upsert(row: {
    area_id: number;
    valid_from: number;
    price: number;
    created_by: number;
    created_at: number;
  }) {
    await this.db
      .insertInto('electricity_prices')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['area_id', 'valid_from']).doUpdateSet({ price: row.price, created_by: row.created_by }),
      )
      .execute();
  }

  /** The instants the mine's prices start at; on PostgreSQL locked to the end of the transaction. */
  async startsLocked(areaId: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('electricity_prices')
      .select('valid_from')
      .where('area_id', '=', areaId)
      .$if(this.dialect === 'postgres', (q) => q.forUpdate())
      .execute();
    return rows.map((r) => Number(r.valid_from));
  }

  async delete(areaId: number, validFrom: number): Promise<void> {
    await this.db
      .deleteFrom('electricity_prices')
      .where('area_id', '=', areaId)
      .where('valid_from', '=', validFrom)
      .execute();
  }

  /** The mine's prices, newest first, with who entered them. */
  async list(areaId: number): Promise<ElectricityPriceItem[]> {
    const rows = await this.db
      .selectFrom('electricity_prices as p')
      .leftJoin('users as u', 'u.id', 'p.created_by')
      .select(['p.valid_from', 'p.price', 'u.username', 'p.created_at'])
      .where('p.area_id', '=', areaId)
      .orderBy('p.valid_from', 'desc')
      .execute();
    return rows.map((r) => ({
      valid_from: Number(r.valid_from),
      price: Number(r.price),
      created_by: r.username ?? null,
      created_at: Number(r.created_at),
    }));
  }

  /** The mine's prices, oldest first. */
  async periods(areaId: number): Promise<{ valid_from: number; price: number }[]> {
    const rows = await this.db
      .selectFrom('electricity_prices')
      .select(['valid_from', 'price'])
      .where('area_id', '=', areaId)
      .orderBy('valid_from')
      .execute();
    return rows.map((r) => ({ valid_from: Number(r.valid_from), price: Number(r.price) }));
  }

  /** The price valid at `at`: the latest from `at` or before, else the earliest. */
  async validAt(areaId: number, at: number): Promise<number | null> {
    const prices = this.db.selectFrom('electricity_prices').select('price').where('area_id', '=', areaId);
    const before = await prices
      .where('valid_from', '<=', at)
      .orderBy('valid_from', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (before) return Number(before.price);
    const first = await prices.orderBy('valid_from').limit(1).executeTakeFirst();
    return first ? Number(first.price) : null;
  }

  /** The mine's row: its current price and when it was created. */
  async mine(areaId: number): Promise<{ electricity_price: number; created_at: number }> {
    const row = await this.db
      .selectFrom('areas')
      .select(['electricity_price', 'created_at'])
      .where('id', '=', areaId)
      .executeTakeFirstOrThrow();
    return { electricity_price: Number(row.electricity_price), created_at: Number(row.created_at) };
  }

  async setCurrent(areaId: number, price: number): Promise<void> {
    await this.db.updateTable('areas').set({ electricity_price: price }).where('id', '=', areaId).execute();
  }
}
