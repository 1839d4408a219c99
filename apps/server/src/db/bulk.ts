import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import { type Dialect, preferPrepared } from './database.js';
import type { DB } from './schema.js';

/** Bound parameters per SQLite statement, under its 32,766. */
const sqliteMaxParams = 30_000;

const sqlCache = new Map<string, string>();

/**
 * An upsert (`update` empty: insert-or-ignore), optionally answering the rows it wrote. With
 * `onlyChanged`, a stored row is updated only where one of the `update` columns differs from the
 * new value (NULLs compare as values): an update that would write what is there is skipped, and
 * with it the rewrite of the row and of its indexes.
 */
interface Conflict {
  columns: readonly string[];
  update: readonly string[];
  onlyChanged?: boolean;
  returning?: readonly string[];
}

/** `table.column` differs from the new row's value (`incoming.column`), NULLs included. */
const differs = (dialect: Dialect, table: string, column: string, incoming = 'excluded') =>
  dialect === 'sqlite'
    ? `${table}.${column} is not ${incoming}.${column}`
    : `${table}.${column} is distinct from ${incoming}.${column}`;

/** A statement's cache key: everything its text is built from. */
const shapeKey = (form: string, table: string, columns: readonly string[], conflict?: Conflict) =>
  `${form}|${table}|${columns.join(',')}|${conflict?.columns.join(',')}|${conflict?.update.join(',')}|${conflict?.onlyChanged ?? false}|${conflict?.returning?.join(',')}`;

/** The ` on conflict …` tail of an insert (empty without a conflict). */
const conflictClause = (dialect: Dialect, table: string, conflict?: Conflict): string => {
  if (!conflict) return '';
  let text = ` on conflict (${conflict.columns.join(',')}) `;
  text +=
    conflict.update.length === 0
      ? 'do nothing'
      : `do update set ${conflict.update.map((c) => `${c} = excluded.${c}`).join(', ')}`;
  if (conflict.onlyChanged && conflict.update.length > 0)
    text += ` where ${conflict.update.map((c) => differs(dialect, table, c)).join(' or ')}`;
  if (conflict.returning) text += ` returning ${conflict.returning.join(',')}`;
  return text;
};

/**
 * Rows in the next SQLite statement of a bulk insert with `remaining` rows left: the largest power
 * of two that fits, under the parameter limit. A statement's text and its prepared form depend on
 * its row count, and a prepared multi-row statement is large (about 1.4 MB for 2,048 rows of 8
 * columns): with any count, nearly every batch prepared statements of new sizes, which cost more
 * than running them (~4 µs a row) and filled the statement cache with hundreds of megabytes. In
 * powers of two a table has at most a dozen sizes, all prepared once.
 */
const sqliteRows = (remaining: number, width: number): number => {
  const most = Math.min(remaining, Math.max(1, Math.floor(sqliteMaxParams / width)));
  return 2 ** Math.floor(Math.log2(most));
};

/** The SQLite form: multi-row VALUES of `rowCount` rows. */
const statement = (
  table: string,
  columns: readonly string[],
  rowCount: number,
  conflict?: Conflict,
): string => {
  const key = shapeKey(`values ${rowCount}`, table, columns, conflict);
  const cached = sqlCache.get(key);
  if (cached) return cached;
  const row = `(${columns.map(() => '?').join(',')})`;
  const text = `insert into ${table} (${columns.join(',')}) values ${Array.from({ length: rowCount }, () => row).join(',')}${conflictClause('sqlite', table, conflict)}`;
  if (sqlCache.size > 200) sqlCache.clear();
  sqlCache.set(key, text);
  return text;
};

/**
 * `count` rows from `from`, `width` values each, as one parameter array. A plain loop: `flat()` of
 * the sliced rows took 13× as long and was a sixth of ingest's CPU.
 */
const flatten = (rows: unknown[][], from: number, count: number, width: number): unknown[] => {
  const params = new Array<unknown>(count * width);
  let k = 0;
  for (let r = from; r < from + count; r++) {
    const row = rows[r]!;
    for (let c = 0; c < width; c++) params[k++] = row[c];
  }
  return params;
};

/** Rows per PostgreSQL statement: one array per column, so no parameter limit applies. */
const pgChunk = 10_000;

/**
 * Per table: each column's PostgreSQL type (with modifiers), as the catalog says. Every schema a
 * process opens has the same tables; the catalog is read again when a column is not known yet (a
 * migration added it).
 */
const pgTypes = new Map<string, Map<string, string>>();

const columnTypes = async (
  db: Kysely<DB> | Transaction<DB>,
  table: string,
  columns: readonly string[],
): Promise<Map<string, string>> => {
  const known = pgTypes.get(table);
  if (known && columns.every((c) => known.has(c))) return known;
  const { rows } = await db.executeQuery<{ attname: string; type: string }>(
    CompiledQuery.raw(
      'select attname, format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = $1::regclass and attnum > 0 and not attisdropped',
      [table],
    ),
  );
  const types = new Map(rows.map((r) => [r.attname, r.type]));
  pgTypes.set(table, types);
  return types;
};

/** `$1::type[], $2::type[], …`: one array parameter per column, typed as the catalog says. */
const arrayParameters = (table: string, columns: readonly string[], types: Map<string, string>): string[] =>
  columns.map((c, n) => {
    const type = types.get(c);
    if (!type) throw new Error(`bulk write: ${table} has no column ${c}`);
    return `$${n + 1}::${type}[]`;
  });

/**
 * The PostgreSQL form: `insert … select * from unnest($1::type[], …)`, one array per column. Its
 * text is the same for any number of rows, so it is parsed once per connection as a prepared
 * statement; the multi-row VALUES form had a text per row count with up to 60,000 parameters,
 * parsed anew on every call.
 */
const unnestStatement = (
  table: string,
  columns: readonly string[],
  types: Map<string, string>,
  conflict?: Conflict,
): string => {
  const key = shapeKey('unnest', table, columns, conflict);
  const cached = sqlCache.get(key);
  if (cached) return cached;
  const arrays = arrayParameters(table, columns, types);
  const text = `insert into ${table} (${columns.join(',')}) select * from unnest(${arrays.join(',')})${conflictClause('postgres', table, conflict)}`;
  sqlCache.set(key, text);
  return text;
};

/** `count` rows from `from` as one array per column. */
const columnArrays = (rows: unknown[][], from: number, count: number, width: number): unknown[][] => {
  const arrays = Array.from({ length: width }, () => new Array<unknown>(count));
  for (let r = 0; r < count; r++) {
    const row = rows[from + r]!;
    for (let c = 0; c < width; c++) arrays[c]![r] = row[c];
  }
  return arrays;
};

/**
 * Multi-row INSERT (optionally an upsert) of plain value arrays. Ingest writes tens of thousands of
 * rows a second; building them as Kysely nodes costs more than the database does, so the SQL is
 * assembled once per shape and cached. SQLite takes multi-row VALUES, chunked under its parameter
 * limit; PostgreSQL one array per column (see `unnestStatement`). Table and column names come from
 * code, never from input.
 */
export const bulkInsert = async (
  db: Kysely<DB> | Transaction<DB>,
  dialect: Dialect,
  table: string,
  columns: readonly string[],
  rows: unknown[][],
  conflict?: Conflict,
): Promise<Record<string, unknown>[]> => {
  const written: Record<string, unknown>[] = [];
  if (rows.length === 0) return written;
  if (dialect === 'postgres') {
    const text = unnestStatement(table, columns, await columnTypes(db, table, columns), conflict);
    preferPrepared(text);
    for (let i = 0; i < rows.length; i += pgChunk) {
      const params = columnArrays(rows, i, Math.min(pgChunk, rows.length - i), columns.length);
      const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(text, params));
      if (conflict?.returning) written.push(...result.rows);
    }
    return written;
  }
  for (let i = 0, count = 0; i < rows.length; i += count) {
    count = sqliteRows(rows.length - i, columns.length);
    const params = flatten(rows, i, count, columns.length);
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(statement(table, columns, count, conflict), params),
    );
    if (conflict?.returning) written.push(...result.rows);
  }
  return written;
};

/**
 * PostgreSQL: updates stored rows from one array per column, each only where one of the `update`
 * columns differs from the new value (NULLs compare as values), matched on `key`; rows that are not
 * stored are left out. An upsert's `on conflict do update … where` locks every row it finds, changed
 * or not, and writes the lock into the row and the WAL; this update touches only the rows it
 * changes. 500 stored rows, none changed (pgbench, a 100,000-row table with four indexes): 1.0 ms
 * against the upsert's 1.8–2.0 ms.
 */
export const bulkUpdateChanged = async (
  db: Kysely<DB> | Transaction<DB>,
  table: string,
  columns: readonly string[],
  rows: unknown[][],
  { key, update }: { key: string; update: readonly string[] },
): Promise<void> => {
  if (rows.length === 0) return;
  const types = await columnTypes(db, table, columns);
  const cacheKey = shapeKey('update', table, columns, { columns: [key], update });
  let text = sqlCache.get(cacheKey);
  if (!text) {
    const arrays = arrayParameters(table, columns, types);
    const set = update.map((c) => `${c} = incoming.${c}`).join(', ');
    const changed = update.map((c) => differs('postgres', table, c, 'incoming')).join(' or ');
    text = `update ${table} set ${set} from unnest(${arrays.join(',')}) as incoming (${columns.join(',')}) where ${table}.${key} = incoming.${key} and (${changed})`;
    sqlCache.set(cacheKey, text);
  }
  preferPrepared(text);
  for (let i = 0; i < rows.length; i += pgChunk) {
    const params = columnArrays(rows, i, Math.min(pgChunk, rows.length - i), columns.length);
    await db.executeQuery(CompiledQuery.raw(text, params));
  }
};
