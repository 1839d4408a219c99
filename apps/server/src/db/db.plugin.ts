import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import { type Database, type DatabaseAddress, type Dialect, updateStatistics } from './database.js';
import { type Migrations, migrateToLatest } from './migrations.js';
import type { DB } from './schema.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<DB>;
    dbDialect: Dialect;
    /** PostgreSQL: hears NOTIFY on a channel (see Database.listen); undefined on SQLite. */
    dbListen: Database['listen'];
    /** PostgreSQL: NOTIFY on a channel (see Database.notify); undefined on SQLite. */
    dbNotify: Database['notify'];
    /** Where another thread opens the database (the ingest writer thread). */
    dbAddress: Database['address'];
    /** SQLite: the process's turn to write (see WriteGate); undefined on PostgreSQL. */
    dbWriteGate: Database['writeGate'];
  }
}

/**
 * Decorates the app with the database, migrated to the latest schema (the core's migrations and
 * those given, the features'), and closes it on shutdown.
 */
export const dbPlugin = fp<{ database: Database; migrations?: (dialect: Dialect) => Migrations }>(
  async (app, { database, migrations }) => {
    await migrateToLatest(database.db as Kysely<unknown>, database.dialect, migrations?.(database.dialect));
    // Before the server listens: no request waits for it (the hourly refresh runs off the loop).
    await updateStatistics(database.db, database.dialect, { onlyMissing: true });
    app.decorate('db', database.db);
    app.decorate('dbDialect', database.dialect);
    app.decorate('dbListen', database.listen?.bind(database));
    app.decorate('dbNotify', database.notify?.bind(database));
    app.decorate<DatabaseAddress>('dbAddress', database.address);
    app.decorate('dbWriteGate', database.writeGate);
    app.addHook('onClose', async () => {
      await database.close();
    });
  },
  { name: 'db' },
);
