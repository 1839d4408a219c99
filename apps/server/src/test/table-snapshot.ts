import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { testDbKind } from './build-test-app.js';

/**
 * Every row of every table, to prove that a refused call changed nothing. Shared by the sweeps that
 * call every endpoint (isolation, input fuzz), so new tables are watched without touching them.
 */

/** Tables whose rows a refused call may touch: session expiry, rate-limit counters, audit. */
const unwatchedTables = new Set([
  'login_limits',
  'operation_log',
  'kysely_migration',
  'kysely_migration_lock',
]);
/** SQLite's keyword index of miners (FTS5, with its own tables): it mirrors `miner_state`. */
const mirrors = /^miner_search(_|$)/;
const unwatchedColumns: Record<string, string[]> = { sessions: ['last_seen_at', 'expires_at'] };

export type TableSnapshot = Record<string, string[]>;

export const tableNames = async (app: FastifyInstance): Promise<string[]> => {
  const query =
    testDbKind === 'sqlite'
      ? sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables
          where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  return (await query.execute(app.db)).rows
    .map((r) => r.name)
    .filter((n) => !unwatchedTables.has(n) && !mirrors.test(n));
};

/** Every watched row of every table (new tables included), in a comparable form. */
export const snapshot = async (app: FastifyInstance, names: string[]): Promise<TableSnapshot> => {
  if (testDbKind === 'postgres') return snapshotPostgres(app, names);
  const all: TableSnapshot = {};
  for (const name of names) {
    const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(app.db)).rows;
    const skip = unwatchedColumns[name] ?? [];
    all[name] = rows
      .map((row) => JSON.stringify(Object.entries(row).filter(([k]) => !skip.includes(k))))
      .sort();
  }
  return all;
};

/**
 * PostgreSQL: the same in one statement (each row as JSON, the unwatched columns taken out). A
 * statement per table made a sweep's snapshot a hundred round trips, most of its run's time.
 */
const snapshotPostgres = async (app: FastifyInstance, names: string[]): Promise<TableSnapshot> => {
  const all: TableSnapshot = Object.fromEntries(names.map((name) => [name, []]));
  if (names.length === 0) return all;
  const selects = names.map((name) => {
    const row = (unwatchedColumns[name] ?? []).reduce(
      (json, column) => sql`${json} - ${sql.lit(column)}`,
      sql`to_jsonb(x)`,
    );
    return sql`select ${sql.lit(name)} as t, (${row})::text as r from ${sql.table(name)} x`;
  });
  const { rows } = await sql<{ t: string; r: string }>`${sql.join(selects, sql` union all `)}`.execute(
    app.db,
  );
  for (const { t, r } of rows) all[t]!.push(r);
  for (const name of names) all[name]!.sort();
  return all;
};

export const changedTables = (before: TableSnapshot, after: TableSnapshot): string[] =>
  Object.keys({ ...before, ...after }).filter(
    (name) => JSON.stringify(before[name] ?? []) !== JSON.stringify(after[name] ?? []),
  );
