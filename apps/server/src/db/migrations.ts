import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { Dialect } from './database.js';
import { accessMigration } from './migration-access.js';
import { devicesMigration } from './migration-devices.js';
import { notNull, withId } from './migration-helpers.js';
import { ingestIdentityMigration } from './migration-ingest-identity.js';
import { minerListMigration } from './migration-miner-list.js';
import { minerListPerfMigration } from './migration-miner-list-perf.js';
import { minesMigration } from './migration-mines.js';
import { secretColumnsMigration } from './migration-secret-columns.js';
import { tenantContactsMigration } from './migration-tenant-contacts.js';

const init = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('users'), dialect)
      .addColumn('username', 'varchar(50)', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', notNull)
      .addColumn('nickname', 'varchar(50)', (c) => c.notNull().defaultTo(''))
      .addColumn('email', 'varchar(254)', (c) => c.notNull().defaultTo(''))
      .addColumn('mobile', 'varchar(32)', (c) => c.notNull().defaultTo(''))
      .addColumn('time_zone', 'varchar(8)', (c) => c.notNull().defaultTo('UTC+8'))
      .addColumn('headimg', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('is_master', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('parent_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('auto_frequency', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('auto_frequency_min', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('auto_frequency_max', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('pool_locked', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('global_config', 'text', notNull)
      .addColumn('alert_send_level', 'text', notNull)
      .addColumn('email_send', 'text', notNull)
      .addColumn('sms_send', 'text', notNull)
      .addColumn('teams_send', 'text', notNull)
      .addColumn('telegram_send', 'text', notNull)
      .addColumn('sms_times', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('totp_secret', 'varchar(64)')
      .addColumn('totp_pending_secret', 'varchar(64)')
      .addColumn('totp_last_step', 'bigint')
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .addColumn('last_login_at', 'bigint')
      .addColumn('last_login_ip', 'varchar(64)')
      .execute();
    await db.schema.createIndex('users_parent_id').on('users').column('parent_id').execute();

    await withId(db.schema.createTable('sessions'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('expires_at', 'bigint', notNull)
      .addColumn('last_seen_at', 'bigint', notNull)
      .addColumn('revoked_at', 'bigint')
      .addColumn('ip', 'varchar(64)')
      .addColumn('user_agent', 'varchar(512)')
      .execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('login_limits')
      .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('failures', 'integer', notNull)
      .addColumn('window_start', 'bigint', notNull)
      .addColumn('locked_until', 'bigint')
      .execute();

    await withId(db.schema.createTable('areas'), dialect)
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('area_name', 'varchar(50)', notNull)
      .addColumn('electricity_hz', 'integer', (c) => c.notNull().defaultTo(50))
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema
      .createIndex('areas_owner_name')
      .unique()
      .on('areas')
      .columns(['owner_id', 'area_name'])
      .execute();

    await db.schema
      .createTable('user_areas')
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('user_areas_pk', ['user_id', 'area_id'])
      .execute();
    await db.schema.createIndex('user_areas_area_id').on('user_areas').column('area_id').execute();

    await withId(db.schema.createTable('messages'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('area_id', 'integer', (c) => c.references('areas.id').onDelete('cascade'))
      .addColumn('level', 'integer', notNull)
      .addColumn('title', 'varchar(200)', notNull)
      .addColumn('content', 'text', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('read_at', 'bigint')
      .execute();
    // The badge counts a user's unread rows on every page load.
    await db.schema
      .createIndex('messages_user_unread')
      .on('messages')
      .columns(['user_id', 'read_at', 'area_id'])
      .execute();
  },
});

/** Migrations by name; Kysely runs them in the order of their names. */
export type Migrations = Record<string, Migration>;

/**
 * The core's numbered migrations. Features add theirs (see modules/feature.ts); every name is
 * unique and the names of core and features sort into one order. Each is written once with the
 * schema builder for both dialects.
 */
const coreMigrations = (dialect: Dialect): Migrations => ({
  '0001_init': init(dialect),
  '0002_devices': devicesMigration(dialect),
  '0003_miner_list_indexes': minerListMigration,
  '0004_access': accessMigration,
  '0005_miner_list_perf': minerListPerfMigration,
  '0007_mines': minesMigration(dialect),
  // 0008 FBOX configuration, 0009 operation log, 0010 tasks, 0011 pools: in their features.
  '0012_ingest_identity': ingestIdentityMigration,
  '0013_secret_columns': secretColumnsMigration(dialect),
  '0014_tenant_contacts': tenantContactsMigration,
});

/**
 * Whether every migration is recorded already: the usual start of a deployed server, answered by
 * one query instead of the migrator's look at the whole catalog (~0.1 s on PostgreSQL). False when
 * the migrations table is missing (a new database), lacks one or has one this server does not know:
 * the migrator then does its work (or refuses).
 */
const isLatest = async (db: Kysely<unknown>, names: string[]): Promise<boolean> => {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const done = new Set(rows.map((row) => row.name));
    // One more than we know (a newer server ran here) is for the migrator to refuse.
    return done.size === names.length && names.every((name) => done.has(name));
  } catch {
    return false;
  }
};

/** Brings the schema up to date; safe to run on every start and from several processes at once. */
export const migrateToLatest = async (
  db: Kysely<unknown>,
  dialect: Dialect,
  featureMigrations: Migrations = {},
): Promise<void> => {
  const core = coreMigrations(dialect);
  const clash = Object.keys(featureMigrations).find((name) => name in core);
  if (clash) throw new Error(`Migration ${clash} is declared twice`);
  const all = { ...core, ...featureMigrations };
  const provider: MigrationProvider = { getMigrations: async () => all };
  // Kysely looks for its own tables in every schema unless told which; with several schemas in one
  // database (parallel test runs, shared servers) it would find another schema's and skip its own.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  if (await isLatest(db, Object.keys(all))) return;
  const migrator = new Migrator({ db, provider, ...(schema && { migrationTableSchema: schema }) });
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (!error && !failed) return;
    // Kysely checks for its tables by listing those of every schema; a schema another process drops
    // meanwhile (parallel test runs, a shared server) fails that listing. Nothing was applied: retry.
    const foreign = /schema "([^"]+)" does not exist/.exec(String(error));
    if (foreign && foreign[1] !== schema && !failed && attempt < 5) continue;
    throw new Error(`Database migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, {
      cause: error,
    });
  }
};
