import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { DB } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

/** An open database: the query builder, its dialect, and how to close it. */
export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Opens SQLite with the settings every connection needs (WAL for concurrent readers, FKs on). */
export const openSqlite = (file: string): Database => {
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
};

/**
 * Timestamps are epoch ms in bigint columns; pg returns int8 as a string by default, which would
 * leak strings into every service. Counts are int8 too.
 */
const pgTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export const openPostgres = (connectionString: string, options: pg.PoolConfig = {}): Database => {
  const pool = new pg.Pool({ connectionString, max: 10, types: pgTypes, ...options });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
};

/** The database the configuration asks for: PostgreSQL when DATABASE_URL is set, else a SQLite file. */
export const openDatabase = (config: { databaseUrl: string | undefined; dataDir: string }): Database => {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  mkdirSync(config.dataDir, { recursive: true });
  return openSqlite(join(config.dataDir, 'fbox.db'));
};
