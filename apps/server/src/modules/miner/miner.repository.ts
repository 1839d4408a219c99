import {
  type MinerExportQuery,
  type MinerListItem,
  MinerListItemSchema,
  type MinerSortField,
} from '@fbox/contracts';
import {
  type Expression,
  expressionBuilder,
  type Kysely,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import type { Dialect } from '../../db/database.js';
import { QueryTemplates } from '../../db/query-template.js';
import type { DB } from '../../db/schema.js';
import { containsPattern, matchesPattern, parseSort } from '../../db/text-match.js';
import { minerReadingColumns } from '../../devices/telemetry-rows.js';
import { poolHijacked } from '../fbox-config/pool-guard.js';
import { outletOrder } from './miner-order.js';
import { TopK } from './top-k.js';

/** Every sortable column of the miner list; ties break on the miner id. */
const sortColumns: Record<MinerSortField, string> = {
  id: 'miner_state.miner_id',
  sn: 'miner_state.sn',
  worker: 'miner_state.worker',
  model: 'miner_state.model',
  brand: 'miner_state.brand',
  pool: 'miner_state.pool',
  pool_address: 'miner_state.pool_address',
  ip: 'miner_state.ip',
  firmware: 'miner_state.firmware',
  fbox_name: 'fboxes.name',
  tank_name: 'tanks.name',
  outlet: 'miner_state.outlet',
  status: 'miner_state.online',
  mode: 'miner_state.mode',
  fault: 'miner_state.fault',
  chip_avg_temp: 'miner_state.chip_avg_temp',
  chip_max_temp: 'miner_state.chip_max_temp',
  hashrate_theoretical: 'miner_state.hashrate_theoretical',
  hashrate_realtime: 'miner_state.hashrate_realtime',
  hashrate_avg: 'miner_state.hashrate_avg',
  hashrate_24h: 'miner_state.hashrate_24h',
  power_w: 'miner_state.power_w',
  uptime_s: 'miner_state.uptime_s',
  updated_at: 'miner_state.updated_at',
};

export const minerColumns = [
  'miner_state.miner_id as id',
  'miner_state.area_id',
  'miner_state.sn',
  'miner_state.worker',
  'miner_state.model',
  'miner_state.brand',
  'miner_state.pool',
  'miner_state.pool_address',
  'miner_state.ip',
  'miner_state.firmware',
  'miner_state.fbox_id',
  'fboxes.name as fbox_name',
  'miner_state.tank_id',
  'tanks.name as tank_name',
  'miner_state.outlet',
  'miner_state.online',
  'miner_state.mode',
  'miner_state.fault',
  'miner_state.chip_avg_temp',
  'miner_state.chip_max_temp',
  'miner_state.hashrate_theoretical',
  'miner_state.hashrate_realtime',
  'miner_state.hashrate_avg',
  'miner_state.hashrate_24h',
  'miner_state.power_w',
  'miner_state.uptime_s',
  'miner_state.updated_at',
] as const;

/** The list's columns: the area is the filter's, so pages leave it out (50 values fewer to read). */
const listColumns = minerColumns.filter(
  (c): c is Exclude<(typeof minerColumns)[number], 'miner_state.area_id'> => c !== 'miner_state.area_id',
);

/**
 * Lock Pool's hijack flag of a page row (1 or 0 on both dialects), read with the page: a separate
 * query for the page's ids was a third round trip per list request on PostgreSQL.
 */
const hijackedFlag = (areaId: number) =>
  sql<number>`case when ${poolHijacked(areaId)} then 1 else 0 end`.as('pool_hijacked');

/** A field's SQL for the dialect, over rows of the mine `areaId`. */
type Rendered = (dialect: Dialect, areaId: number) => RawBuilder<unknown>;

/** Fields of a list item that are not the `miner_state` column of their name. */
const derivedFields: Partial<Record<keyof MinerListItem, Rendered>> = {
  id: () => sql.ref('miner_state.miner_id'),
  fbox_name: () => sql`coalesce(${sql.ref('fboxes.name')}, '')`,
  tank_name: () => sql.ref('tanks.name'),
  status: () => sql`case when ${sql.ref('miner_state.online')} = 1 then 'online' else 'offline' end`,
  mode: () => sql`case when ${sql.ref('miner_state.mode')} = 'low' then 'low' else 'high' end`,
  // A JSON boolean: PostgreSQL writes its booleans so, SQLite needs the JSON literal.
  pool_hijacked: (dialect, areaId) =>
    dialect === 'postgres'
      ? sql`${poolHijacked(areaId)}`
      : sql`json(case when ${poolHijacked(areaId)} then 'true' else 'false' end)`,
};

/**
 * A list item's fields, in the contract's order, as SQL over the page's joined rows: the JSON the
 * database builds (`pageJson`). `minerItem` is the same mapping for rows read as values.
 */
const listItemFields = (Object.keys(MinerListItemSchema.shape) as (keyof MinerListItem)[]).map(
  (name): [keyof MinerListItem, Rendered] => [
    name,
    derivedFields[name] ?? (() => sql.ref(`miner_state.${name}`)),
  ],
);

type Filters = Omit<MinerExportQuery, 'sort'>;

/**
 * A filter split for a query template (see QueryTemplates). Filters on a column of a few known
 * values (status, mode, a fault or none) are literals of the SQL: PostgreSQL then knows how many
 * rows they keep when it plans a prepared statement once for all runs (most miners are online;
 * with `online = $2` it assumed half and kept re-planning each status + model page). The other
 * filters are parameters; which of them are set is part of the shape.
 */
interface FilterLiterals {
  online?: 0 | 1 | undefined;
  mode?: 'high' | 'low' | undefined;
  fault?: 'any' | 'none' | undefined;
  /** Only miners flagged by the pool-hijack guard (Lock Pool). */
  hijacked?: true | undefined;
}

interface FilterValues {
  area_id: number;
  fbox_id?: number | undefined;
  tank_id?: number | undefined;
  model?: string | undefined;
  brand?: string | undefined;
  pool?: string | undefined;
  /** A fault code (not `any` / `none`). */
  fault?: string | undefined;
  /** `containsPattern` of the keyword (PostgreSQL; SQLite unless `search`). */
  pattern?: string | undefined;
  /** SQLite: the keyword as an FTS5 phrase of `miner_search` (a trigram index; 3 characters or more). */
  search?: string | undefined;
  /** Under-hashing: realtime below this percent of theoretical. */
  under_pct?: number | undefined;
}

/**
 * Whether a keyword can be looked up in its index: both dialects index trigrams of the worker, IP
 * and SN (SQLite `0040`, PostgreSQL `0041`), which match substrings of 3 characters or more.
 */
export const keywordIndexed = (keyword: string | undefined): keyword is string =>
  keyword !== undefined && [...keyword].length >= 3;

/**
 * How a query finds a keyword's miners: from its trigram index (`index`), or by testing the rows it
 * reads (`rows`: a walk in the list's order that stops at a full page, for a keyword matching many).
 * PostgreSQL's planner chooses for itself; SQLite's query names its index or not.
 */
export type KeywordLookup = 'index' | 'rows';

const splitFilter = (f: Filters, dialect: Dialect, lookup: KeywordLookup = 'index') => {
  const search = dialect === 'sqlite' && lookup === 'index' && keywordIndexed(f.keyword);
  const literals: FilterLiterals = {
    online: f.status ? (f.status === 'online' ? 1 : 0) : undefined,
    mode: f.mode || undefined,
    fault: f.fault === 'any' || f.fault === 'none' ? f.fault : undefined,
    hijacked: f.pool_hijacked ? true : undefined,
  };
  const values: FilterValues = {
    area_id: f.area_id,
    fbox_id: f.fbox_id,
    tank_id: f.tank_id,
    model: f.model || undefined,
    brand: f.brand || undefined,
    pool: f.pool || undefined,
    fault: f.fault && literals.fault === undefined ? f.fault : undefined,
    pattern: f.keyword && !search ? containsPattern(f.keyword) : undefined,
    search: search ? `"${f.keyword?.replaceAll('"', '""')}"` : undefined,
    under_pct: f.under_pct,
  };
  const set = Object.keys(values).filter((k) => values[k as keyof FilterValues] !== undefined);
  const shape = `${set.join(',')}|${literals.online ?? ''},${literals.mode ?? ''},${literals.fault ?? ''},${literals.hijacked ? 'hijacked' : ''}`;
  return { literals, values, shape };
};

/**
 * Sorts no index of the dialect serves, so a page of a large mine reads and sorts all its rows.
 * Neither dialect indexes a reading, so a sample writes no index (`0038`, `0039`). SQLite indexes
 * every sort on a setting (its updates rewrite only the indexes of the columns they set);
 * PostgreSQL none of them but the SN's and the box name's (so that samples are HOT updates).
 */
const unindexedSorts: Record<Dialect, ReadonlySet<string>> = {
  sqlite: new Set<MinerSortField>([
    'chip_avg_temp',
    'chip_max_temp',
    'hashrate_realtime',
    'hashrate_avg',
    'power_w',
    'uptime_s',
    'updated_at',
    'tank_name',
  ]),
  postgres: new Set(
    (Object.keys(sortColumns) as MinerSortField[]).filter(
      (field) => !['id', 'sn', 'fbox_name'].includes(field),
    ),
  ),
};

/**
 * Whether a list sorted by `sort` is served from sort snapshots once it is long (MinerService): a
 * sort no index of the dialect serves.
 */
export const snapshotSort = (dialect: Dialect, sort: string | undefined): boolean =>
  sort !== undefined && unindexedSorts[dialect].has(sort.replace(/^-/, ''));

/** The filter's conditions on a miner of its mine (the mine's own is `area_id = …`). */
const filterConditions = (v: FilterValues, literals: FilterLiterals): Expression<SqlBool>[] => {
  const eb = expressionBuilder<DB, 'miner_state'>();
  const conditions: Expression<SqlBool>[] = [];
  if (v.fbox_id !== undefined) conditions.push(eb('miner_state.fbox_id', '=', v.fbox_id));
  if (v.tank_id !== undefined) conditions.push(eb('miner_state.tank_id', '=', v.tank_id));
  if (literals.online !== undefined) conditions.push(eb('miner_state.online', '=', sql.lit(literals.online)));
  if (v.model !== undefined) conditions.push(eb('miner_state.model', '=', v.model));
  if (v.brand !== undefined) conditions.push(eb('miner_state.brand', '=', v.brand));
  if (v.pool !== undefined) conditions.push(eb('miner_state.pool', '=', v.pool));
  if (literals.mode !== undefined) conditions.push(eb('miner_state.mode', '=', sql.lit(literals.mode)));
  if (literals.fault === 'any') conditions.push(eb('miner_state.fault', '<>', sql.lit('')));
  else if (literals.fault === 'none') conditions.push(eb('miner_state.fault', '=', sql.lit('')));
  else if (v.fault !== undefined) conditions.push(eb('miner_state.fault', '=', v.fault));
  if (literals.hijacked) conditions.push(poolHijacked(v.area_id));
  if (v.under_pct !== undefined) {
    // Reported readings only (-999 is "no data"), of miners reporting now.
    const realtime = sql.ref('miner_state.hashrate_realtime');
    const theoretical = sql.ref('miner_state.hashrate_theoretical');
    conditions.push(
      eb('miner_state.online', '=', sql.lit(1)),
      eb('miner_state.hashrate_theoretical', '>', sql.lit(0)),
      eb('miner_state.hashrate_realtime', '>=', sql.lit(0)),
      sql<SqlBool>`${realtime} * 100 < ${theoretical} * ${v.under_pct}`,
    );
  }
  if (v.search !== undefined)
    conditions.push(
      sql<SqlBool>`${sql.ref('miner_state.miner_id')} in (select rowid from miner_search where miner_search match ${v.search})`,
    );
  if (v.pattern !== undefined)
    conditions.push(
      eb.or([
        matchesPattern('miner_state.worker', v.pattern),
        matchesPattern('miner_state.ip', v.pattern),
        matchesPattern('miner_state.sn', v.pattern),
      ]),
    );
  return conditions;
};

/**
 * A page's values: the filter's; with a sort snapshot the page's ids, with a page anchor the id
 * the page follows (see `pageParts`).
 */
type PageValues = FilterValues & { ids?: unknown; after?: number };

/**
 * How a page is read (see `pageParts`): `ids`, the page's miners (a sort snapshot's, or those of a
 * keyword found in its index); `after`, a page anchor's id; `keyword`, how the filter's keyword is
 * looked up.
 */
export interface PageOptions {
  ids?: number[] | undefined;
  after?: number | undefined;
  keyword?: KeywordLookup | undefined;
}

/**
 * The list's order for a `sort` parameter. Missing values sort as the largest on both dialects
 * (PostgreSQL's default, so its indexes serve); ties break on the id in the same direction, so one
 * index walk orders the page. A missing outlet is the largest outlet number, as a value, so
 * SQLite's index on that serves.
 */
const listOrder = (sort: string | undefined) => {
  const { column, direction } = parseSort(sort, sortColumns, 'id');
  const nulls = column === 'tanks.name' ? (direction === 'asc' ? ' nulls last' : ' nulls first') : '';
  const sorted = column === 'miner_state.outlet' ? outletOrder : sql.ref(column);
  return {
    column,
    direction,
    byColumn: sql`${sorted} ${sql.raw(direction + nulls)}`,
    byId: sql`${sql.ref('miner_state.miner_id')} ${sql.raw(direction)}`,
  };
};

/** List queries run on every page view: built once per shape (filters set, sort). */
const templates = new QueryTemplates(500);

/** The view's columns that come from `miner_readings` (`0042`), its key aside. */
const readingColumns = new Set(
  minerReadingColumns.filter((c) => c !== 'miner_id').map((c) => `miner_state.${c}`),
);

/** The settings the list offers as filter options, and how many values of each at most. */
export type FilterOptionColumn = 'model' | 'brand' | 'pool' | 'fault';
const filterOptionsLimit = 500;

/**
 * Kysely queries for miners. Lists filter, sort and page on `miner_state` (one row per miner: the
 * view of `miner_info`, with an index per filter and sort column led by `area_id`, and its
 * readings, `miner_readings`; see `source`); FBOX and tank names join by primary key.
 */
export class MinerRepository {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Where a list query reads its miners: the view `miner_state` when it needs a reading (the
   * under-hashrate filter, an order on a reading), else `miner_info` under the view's name. The
   * view looks each row's readings up: a count of 1,000,000 miners by status took 132 ms through it
   * and 35 ms from `miner_info`'s index alone.
   */
  private source(v: FilterValues, orderColumn?: string): SelectQueryBuilder<DB, 'miner_state', object> {
    const needsReadings =
      v.under_pct !== undefined || (orderColumn !== undefined && readingColumns.has(orderColumn));
    return needsReadings
      ? this.db.selectFrom('miner_state')
      : (this.db.selectFrom('miner_info as miner_state') as unknown as SelectQueryBuilder<
          DB,
          'miner_state',
          object
        >);
  }

  private filtered<O>(
    query: SelectQueryBuilder<DB, 'miner_state', O>,
    v: FilterValues,
    literals: FilterLiterals,
  ) {
    return filterConditions(v, literals).reduce(
      (q, condition) => q.where(condition),
      query.where('miner_state.area_id', '=', v.area_id),
    );
  }

  /**
   * The miners the filter matches, at most `limit`, by id: what an action on "the miners of the
   * list's filter" acts on (a miner log export).
   */
  matching(f: Filters, limit: number) {
    const { literals, values } = splitFilter(f, this.dialect);
    return this.filtered(this.source(values), values, literals)
      .select(['miner_state.miner_id', 'miner_state.fbox_id', 'miner_state.sn'])
      .orderBy('miner_state.miner_id')
      .limit(limit)
      .execute();
  }

  /** The area's miners counted by online state. */
  countByOnline(areaId: number) {
    return this.db
      .selectFrom('miner_info')
      .select(['online', sql<number>`count(*)`.as('n')])
      .where('area_id', '=', areaId)
      .groupBy('online')
      .execute();
  }

  /** How many miners match the filter. */
  async count(f: Filters): Promise<number> {
    const { literals, values, shape } = splitFilter(f, this.dialect);
    const [row] = await templates.execute(this.db, `count|${shape}`, values, (v) =>
      this.filtered(this.source(v), v, literals).select(sql<number>`count(*)`.as('total')),
    );
    return Number(row?.total ?? 0);
  }

  /**
   * What a page query is made of: the order (a column, then the id, in the sort's direction), the
   * filter split for a template, and the page's ids in a derived table `page` that takes them from
   * the filter + sort index (narrow rows, so skipped rows cost little). The page's miners then join
   * by primary key and are put back in the page's order. With `ids` (a sort snapshot's page, see
   * SortSnapshots) the page is those of the miners that still match the filter, in the same order.
   */
  private pageParts(
    f: Filters & { sort?: string | undefined },
    limit: number,
    offset: number,
    { ids, after, keyword }: PageOptions = {},
  ) {
    const { column, direction, byColumn, byId } = listOrder(f.sort);
    const { literals, values, shape: filterShape } = splitFilter(f, this.dialect, keyword);
    // Limit and offset are literals: PostgreSQL keeps one generic plan of a prepared statement
    // only when they are known (with either a parameter it assumes a tenth of the table and
    // plans every run anew); each page size and offset is a statement of its own.
    const shape = ids
      ? `${column} ${direction}|${filterShape}|ids`
      : `${column} ${direction}|${filterShape}|${limit} ${offset}${after === undefined ? '' : '|after'}`;
    const given: PageValues = ids
      ? { ...values, ids: this.dialect === 'postgres' ? ids : JSON.stringify(ids) }
      : after === undefined
        ? values
        : { ...values, after };
    const rows = (v: PageValues) => {
      let ordered = this.orderedIdsQuery(f.sort, v, literals);
      // A page anchor (id order only): the rows after the id at the anchored position.
      if (v.after !== undefined) ordered = ordered.where('miner_state.miner_id', '>', v.after);
      const pageIds =
        v.ids === undefined
          ? ordered.limit(sql.lit(limit)).offset(sql.lit(offset))
          : this.filtered(this.source(v), v, literals)
              .select('miner_state.miner_id')
              .where(this.amongIds(v.ids));
      return this.db
        .selectFrom(pageIds.as('page'))
        .innerJoin('miner_state', 'miner_state.miner_id', 'page.miner_id')
        .leftJoin('fboxes', 'fboxes.id', 'miner_state.fbox_id')
        .leftJoin('tanks', 'tanks.id', 'miner_state.tank_id');
    };
    return { shape, values: given, rows, order: sql`${byColumn}, ${byId}` };
  }

  /** `miner_state.miner_id` is one of `ids` (an array on PostgreSQL, its JSON on SQLite). */
  private amongIds(ids: unknown) {
    return this.dialect === 'postgres'
      ? sql<boolean>`${sql.ref('miner_state.miner_id')} = any(${ids}::integer[])`
      : sql<boolean>`${sql.ref('miner_state.miner_id')} in (select value from json_each(${ids}))`;
  }

  /** The ids of the filtered miners in the list's order (see `pageParts`). */
  private orderedIdsQuery(sort: string | undefined, v: FilterValues, literals: FilterLiterals) {
    const { column, byColumn, byId } = listOrder(sort);
    let ids = this.filtered(this.source(v, column), v, literals);
    // Every miner has its box, in its mine: walking the mine's boxes by name (an index) and each
    // box's miners, only the miners of boxes of one name are sorted (by id), not the whole mine.
    if (column === 'fboxes.name')
      ids = ids
        .innerJoin('fboxes', 'fboxes.id', 'miner_state.fbox_id')
        .where('fboxes.area_id', '=', v.area_id);
    if (column === 'tanks.name') ids = ids.leftJoin('tanks', 'tanks.id', 'miner_state.tank_id');
    return ids.select('miner_state.miner_id').orderBy(byColumn).orderBy(byId);
  }

  /** The id at `position` (from 0) of the list in id order, if the list is that long (PageAnchors). */
  async idAt(f: Filters, position: number): Promise<number | undefined> {
    const { literals, values, shape } = splitFilter(f, this.dialect);
    const [row] = await templates.execute(this.db, `id-at|${shape}|${position}`, values, (v) =>
      this.orderedIdsQuery(undefined, v, literals).limit(sql.lit(1)).offset(sql.lit(position)),
    );
    return row?.miner_id;
  }

  /**
   * Every id the filter matches, in the list's order: the miners of a keyword that matches few
   * (MinerService). No limit, so the planner reads the keyword's index and sorts what it finds; with
   * one, PostgreSQL's generic plan walks the order's index, and for a single match reads the mine.
   */
  async allIds(f: Filters & { sort?: string | undefined }): Promise<number[]> {
    const { column, direction } = listOrder(f.sort);
    const { literals, values, shape } = splitFilter(f, this.dialect);
    const found = await templates.execute(this.db, `all-ids|${column} ${direction}|${shape}`, values, (v) =>
      this.orderedIdsQuery(f.sort, v, literals),
    );
    return found.map((r) => r.miner_id);
  }

  /**
   * The first `rows` ids of the list in its order: what a sort snapshot holds (SortSnapshots).
   * PostgreSQL sorts them itself, off the server's event loop. SQLite would hold the loop for the
   * whole sort, so the mine's rows are read by id in chunks, with other work let in between, and
   * the first `rows` of those the filter keeps held (TopK).
   */
  async orderedIds(f: Filters & { sort?: string | undefined }, rows: number): Promise<number[]> {
    const { column, direction } = listOrder(f.sort);
    if (this.dialect === 'postgres') {
      const { literals, values, shape } = splitFilter(f, this.dialect);
      const found = await templates.execute(
        this.db,
        `ids|${column} ${direction}|${shape}|${rows}`,
        values,
        (v) => this.orderedIdsQuery(f.sort, v, literals).limit(sql.lit(rows)),
      );
      return found.map((r) => r.miner_id);
    }
    const top = new TopK(rows, direction);
    // SQLite's order: a missing value is the smallest; a miner without a tank sorts last by tank.
    let sortValue: (value: unknown) => number;
    let selected: RawBuilder<unknown>;
    if (column === 'tanks.name') {
      const ranks = await this.tankRanks(f.area_id);
      sortValue = (tankId) => ranks.get(tankId as number) ?? Number.POSITIVE_INFINITY;
      selected = sql.ref('miner_state.tank_id');
    } else {
      sortValue = (value) => (value === null ? Number.NEGATIVE_INFINITY : Number(value));
      selected = sql.ref(column);
    }
    // The filter is a value of each row, not a condition of the read, so the read stays a walk by id.
    const { literals, values } = splitFilter(f, this.dialect);
    const conditions = filterConditions(values, literals);
    const keep = sql<SqlBool>`${conditions.length > 0 ? expressionBuilder<DB, 'miner_state'>().and(conditions) : sql.lit(1)}`;
    const chunk = 4096;
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const found = await this.source(values, column)
        .select(['miner_state.miner_id', selected.as('value'), keep.as('keep')])
        .where('miner_state.area_id', '=', f.area_id)
        .where('miner_state.miner_id', '>', after)
        .orderBy('miner_state.miner_id')
        .limit(chunk)
        .execute();
      for (const r of found) if (r.keep) top.add(r.miner_id, sortValue(r.value));
      if (found.length < chunk) break;
      after = found[found.length - 1]!.miner_id;
      await new Promise((resolve) => setImmediate(resolve));
    }
    return top.result();
  }

  /** Each tank of the mine by its name's place in the list's order (equal names, equal places). */
  private async tankRanks(areaId: number): Promise<Map<number, number>> {
    const tanks = await this.db
      .selectFrom('tanks')
      .select(['id', 'name'])
      .where('area_id', '=', areaId)
      .orderBy('name')
      .execute();
    const ranks = new Map<number, number>();
    let rank = 0;
    let previous: string | undefined;
    for (const tank of tanks) {
      if (tank.name !== previous) rank++;
      previous = tank.name;
      ranks.set(tank.id, rank);
    }
    return ranks;
  }

  /**
   * The sorted, filtered rows; `limit` rows from `offset`, in one query (see `pageParts`). Each
   * row carries its Lock Pool hijack flag (`pool_hijacked`, 1 or 0).
   */
  page(f: Filters & { sort?: string | undefined }, limit: number, offset: number) {
    const { shape, values, rows, order } = this.pageParts(f, limit, offset);
    return templates.execute(this.db, `page|${shape}`, values, (v) =>
      rows(v).select(listColumns).select(hijackedFlag(v.area_id)).orderBy(order),
    );
  }

  /**
   * The same page as `page`, as the list's JSON: an array of list items (MinerListItem, keys in
   * their order) built by the database, and how many there are.
   */
  async pageJson(
    f: Filters & { sort?: string | undefined },
    limit: number,
    offset: number,
    options: PageOptions = {},
  ): Promise<{ items: string; count: number }> {
    const { shape, values, rows, order } = this.pageParts(f, limit, offset, options);
    const postgres = this.dialect === 'postgres';
    const [row] = await templates.execute(this.db, `json|${shape}`, values, (v) => {
      const page = rows(v).select(sql<number>`count(*)`.as('count'));
      if (!postgres)
        return page.select(
          sql<string>`json_group_array(json_object(${sql.join(
            listItemFields.map(([name, value]) => sql`${sql.lit(name)}, ${value('sqlite', v.area_id)}`),
          )}) order by ${order})`.as('items'),
        );
      // row_to_json of a lateral row writes compact JSON with the keys in order (json_build_object
      // puts " : " between them).
      return page
        .innerJoinLateral(
          this.db
            .selectNoFrom(listItemFields.map(([name, value]) => value('postgres', v.area_id).as(name)))
            .as('item'),
          (join) => join.onTrue(),
        )
        .select(
          sql<string>`coalesce('[' || string_agg(row_to_json(item)::text, ',' order by ${order}) || ']', '[]')`.as(
            'items',
          ),
        );
    });
    return { items: row?.items ?? '[]', count: Number(row?.count ?? 0) };
  }

  find(areaId: number, id: number) {
    return this.db
      .selectFrom('miner_state')
      .leftJoin('fboxes', 'fboxes.id', 'miner_state.fbox_id')
      .leftJoin('tanks', 'tanks.id', 'miner_state.tank_id')
      .select(minerColumns)
      .where('miner_state.area_id', '=', areaId)
      .where('miner_state.miner_id', '=', id)
      .executeTakeFirst();
  }

  /** Miners of the area among `ids`, with what a command needs to reach them. */
  findTargets(areaId: number, ids: number[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('miners')
      .leftJoin('miner_info as miner_state', 'miner_state.miner_id', 'miners.id')
      .select(['miners.id', 'miners.fbox_id', 'miners.tank_id', 'miners.sn', 'miner_state.outlet'])
      .where('miners.area_id', '=', areaId)
      .where('miners.id', 'in', ids)
      .execute();
  }

  async delete(areaId: number, ids: number[]): Promise<number> {
    if (ids.length === 0) return 0;
    const r = await this.db
      .deleteFrom('miners')
      .where('area_id', '=', areaId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  /**
   * The values of a setting in the mine, for the list's filter options. Read from `miner_info`'s
   * `(area_id, column)` indexes, never the view: SQLite steps from value to value in the index by
   * itself; PostgreSQL (no skip scan before 18) is led by a recursive query that asks the index for
   * the next value after the last, once per value. `> ''` leaves out the empty value (no setting),
   * which sorts first, by seeking past it. 100,000 miners: 11–43 ms a column through the view;
   * 0.03–0.15 ms (SQLite) and 0.6–0.7 ms (PostgreSQL) so.
   */
  async distinct(areaId: number, column: FilterOptionColumn): Promise<string[]> {
    if (this.dialect === 'postgres') {
      const next = (after: RawBuilder<unknown>) =>
        sql`(select ${sql.ref(column)} from miner_info where area_id = ${areaId} and ${sql.ref(column)} > ${after} order by ${sql.ref(column)} limit 1)`;
      const { rows } = await sql<{ value: string }>`
        with recursive found(value) as (
          ${next(sql.lit(''))}
          union all
          select ${next(sql.ref('found.value'))} from found where found.value is not null
        )
        select value from found where value is not null order by value limit ${filterOptionsLimit}`.execute(
        this.db,
      );
      return rows.map((r) => r.value);
    }
    const rows = await this.db
      .selectFrom('miner_info')
      .select(`${column} as value`)
      .distinct()
      .where('area_id', '=', areaId)
      .where(column, '>', '')
      .orderBy('value')
      .limit(filterOptionsLimit)
      .execute();
    return rows.map((r) => r.value);
  }
}
