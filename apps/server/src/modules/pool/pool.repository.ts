import type { ObserverLinkListQuery, PoolSubaccountListBody } from '@fbox/contracts';
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import { containsText, parseSort } from '../../db/text-match.js';

const linkSort = {
  id: 'id',
  pool: 'pool',
  subaccount: 'subaccount',
  coin: 'coin',
  created_at: 'created_at',
} as const;

const subaccountSort = {
  id: 'id',
  pool: 'pool',
  subaccount: 'subaccount',
  coin: 'coin',
  updated_at: 'updated_at',
} as const;

/** Keyword search over the pool, subaccount and coin columns. */
const matches = (keyword: string): Expression<SqlBool>[] => [
  containsText('pool', keyword),
  containsText('subaccount', keyword),
  containsText('coin', keyword),
];

/** The plain columns of a pool subaccount; secrets only as "stored or not" (never read out). */
const subaccountColumns = [
  'id',
  'area_id',
  'pool',
  'subaccount',
  'coin',
  'observer_url',
  sql<number>`case when api_key is null then 0 else 1 end`.as('has_api_key'),
  sql<number>`case when api_secret is null then 0 else 1 end`.as('has_api_secret'),
  'created_at',
  'updated_at',
] as const;

export type PoolSubaccountRow = {
  id: number;
  area_id: number;
  pool: string;
  subaccount: string;
  coin: string;
  observer_url: string;
  has_api_key: number;
  has_api_secret: number;
  created_at: number;
  updated_at: number;
};

/** Values a save writes; `undefined` leaves a column as it is. */
export interface PoolSubaccountValues {
  pool: string;
  subaccount: string;
  coin: string;
  observer_url: string;
  api_key?: string | null;
  api_secret?: string | null;
}

/** Kysely queries for the observer links and pool subaccounts of one mine. */
export class PoolRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async listLinks(q: ObserverLinkListQuery) {
    const keyword = q.keyword;
    const base = this.db
      .selectFrom('observer_links')
      .where('area_id', '=', q.area_id)
      .$if(Boolean(keyword), (qb) => qb.where((eb) => eb.or(matches(keyword!))));
    const { column, direction } = parseSort(q.sort ?? '-id', linkSort, 'id');
    const [items, count] = await Promise.all([
      base
        .select(['id', 'area_id', 'pool', 'subaccount', 'coin', 'link', 'created_at'])
        .orderBy(sql.ref(column), direction)
        .orderBy('id', direction)
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.total) };
  }

  async insertLink(values: {
    area_id: number;
    pool: string;
    subaccount: string;
    coin: string;
    link: string;
    created_at: number;
  }) {
    return this.db
      .insertInto('observer_links')
      .values(values)
      .returning(['id', 'area_id', 'pool', 'subaccount', 'coin', 'link', 'created_at'])
      .executeTakeFirstOrThrow();
  }

  /** Deletes a link of the mine; false when the mine has no such link. */
  async deleteLink(areaId: number, id: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('observer_links')
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  async listSubaccounts(q: PoolSubaccountListBody) {
    const keyword = q.keyword;
    const base = this.db
      .selectFrom('pool_subaccounts')
      .where('area_id', '=', q.area_id)
      .$if(Boolean(keyword), (qb) => qb.where((eb) => eb.or(matches(keyword!))));
    const { column, direction } = parseSort(q.sort, subaccountSort, 'pool');
    const [items, count] = await Promise.all([
      base
        .select(subaccountColumns)
        .orderBy(sql.ref(column), direction)
        .orderBy('id', direction)
        .limit(q.limit)
        .offset((q.page - 1) * q.limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { items: items as PoolSubaccountRow[], total: Number(count.total) };
  }

  async findSubaccount(areaId: number, id: number): Promise<PoolSubaccountRow | undefined> {
    return (await this.db
      .selectFrom('pool_subaccounts')
      .select(subaccountColumns)
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst()) as PoolSubaccountRow | undefined;
  }

  /** Whether another subaccount of the mine has this pool, name and coin. */
  async subaccountTaken(
    areaId: number,
    values: Pick<PoolSubaccountValues, 'pool' | 'subaccount' | 'coin'>,
    exceptId?: number,
  ): Promise<boolean> {
    const row = await this.db
      .selectFrom('pool_subaccounts')
      .select('id')
      .where('area_id', '=', areaId)
      .where('pool', '=', values.pool)
      .where('subaccount', '=', values.subaccount)
      .where('coin', '=', values.coin)
      .$if(exceptId !== undefined, (qb) => qb.where('id', '!=', exceptId!))
      .executeTakeFirst();
    return row !== undefined;
  }

  async insertSubaccount(areaId: number, values: PoolSubaccountValues, now: number): Promise<number> {
    const row = await this.db
      .insertInto('pool_subaccounts')
      .values({
        area_id: areaId,
        pool: values.pool,
        subaccount: values.subaccount,
        coin: values.coin,
        observer_url: values.observer_url,
        api_key: values.api_key ?? null,
        api_secret: values.api_secret ?? null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Updates a subaccount of the mine; false when the mine has no such subaccount. */
  async updateSubaccount(
    areaId: number,
    id: number,
    values: PoolSubaccountValues,
    now: number,
  ): Promise<boolean> {
    const r = await this.db
      .updateTable('pool_subaccounts')
      .set({
        pool: values.pool,
        subaccount: values.subaccount,
        coin: values.coin,
        observer_url: values.observer_url,
        ...(values.api_key !== undefined && { api_key: values.api_key }),
        ...(values.api_secret !== undefined && { api_secret: values.api_secret }),
        updated_at: now,
      })
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async deleteSubaccount(areaId: number, id: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('pool_subaccounts')
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }

  /**
   * The stored credentials of a mine's pool subaccounts, for the revenue statistics (server side
   * only: no endpoint answers them).
   */
  async credentials(areaId: number) {
    return this.db
      .selectFrom('pool_subaccounts')
      .select(['id', 'pool', 'subaccount', 'coin', 'observer_url', 'api_key', 'api_secret'])
      .where('area_id', '=', areaId)
      .orderBy('id')
      .execute();
  }
}
