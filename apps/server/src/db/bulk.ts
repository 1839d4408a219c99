import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './database.js';
import type { DB } from './schema.js';

/** Bound parameters per statement, under SQLite's 32,766 and PostgreSQL's 65,535. */
const maxParams: Record<Dialect, number> = { sqlite: 30_000, postgres: 60_000 };

const sqlCache = new Map<string, string>();

/** An upsert (`update` empty: insert-or-ignore), optionally answering the rows it wrote. */
interface Conflict {
  columns: readonly string[];
  update: readonly string[];
  returning?: readonly string[];
}

const statement = (
  dialect: Dialect,
  table: string,
  columns: readonly string[],
  rowCount: number,
  conflict?: Conflict,
): string => {
  const key = `${dialect}|${table}|${columns.join(',')}|${rowCount}|${conflict?.columns.join(',')}|${conflict?.update.join(',')}|${conflict?.returning?.join(',')}`;
  const cached = sqlCache.get(key);
  if (cached) return cached;
  let n = 0;
  const row =
    dialect === 'sqlite'
      ? () => `(${columns.map(() => '?').join(',')})`
      : () => `(${columns.map(() => `$${++n}`).join(',')})`;
  const values = Array.from({ length: rowCount }, row).join(',');
  let text = `insert into ${table} (${columns.join(',')}) values ${values}`;
  if (conflict) {
    text += ` on conflict (${conflict.columns.join(',')}) `;
    text +=
      conflict.update.length === 0
        ? 'do nothing'
        : `do update set ${conflict.update.map((c) => `${c} = excluded.${c}`).join(', ')}`;
    if (conflict.returning) text += ` returning ${conflict.returning.join(',')}`;
  }
  if (sqlCache.size > 200) sqlCache.clear();
  sqlCache.set(key, text);
  return text;
};

/**
 * Multi-row INSERT (optionally an upsert) of plain value arrays, chunked under the driver's
 * parameter limit. Ingest writes tens of thousands of rows a second; building them as Kysely
 * nodes costs more than the database does, so the SQL is assembled once per shape and cached.
 * Table and column names come from code, never from input.
 */
export const bulkInsert = async (
  db: Kysely<DB> | Transaction<DB>,
  dialect: Dialect,
  table: string,
  columns: readonly string[],
  rows: unknown[][],
  conflict?: Conflict,
): Promise<Record<string, unknown>[]> => {
  const perChunk = Math.max(1, Math.floor(maxParams[dialect] / columns.length));
  const written: Record<string, unknown>[] = [];
  for (let i = 0; i < rows.length; i += perChunk) {
    const chunk = rows.slice(i, i + perChunk);
    const params = chunk.flat();
    const result = await db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(statement(dialect, table, columns, chunk.length, conflict), params),
    );
    if (conflict?.returning) written.push(...result.rows);
  }
  return written;
};
