import type { ColumnDefinitionBuilder, CreateTableBuilder } from 'kysely';
import type { Dialect } from './database.js';

/** A table being created by a migration. */
export type Table = CreateTableBuilder<string, never>;

/** Auto-increment primary key: SQLite's rowid alias vs PostgreSQL's serial. */
export const withId = (table: Table, dialect: Dialect): Table =>
  dialect === 'sqlite'
    ? table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : table.addColumn('id', 'serial', (c) => c.primaryKey());

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull();
