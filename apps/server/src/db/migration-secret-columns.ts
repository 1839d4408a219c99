import type { Kysely, Migration } from 'kysely';
import type { Dialect } from './database.js';

/**
 * Columns holding secrets encrypted at rest (lib/secret-box). The sealed form is longer than the
 * plain value (prefix, key id, nonce and tag, base64): a 32-character TOTP secret no longer fits
 * `varchar(64)`, nor a 256-character pool secret `varchar(256)`. PostgreSQL gets `text`; SQLite
 * does not enforce lengths. The values themselves are sealed by the start-up pass
 * (secrets/reseal.ts), which needs the key that migrations do not have.
 */
const secretColumns = [
  { table: 'users', column: 'totp_secret', plain: 'varchar(64)' },
  { table: 'users', column: 'totp_pending_secret', plain: 'varchar(64)' },
  { table: 'fboxes', column: 'mqtt_password', plain: 'varchar(128)' },
  { table: 'fbox_collectors', column: 'password', plain: 'varchar(128)' },
  { table: 'pool_subaccounts', column: 'api_key', plain: 'varchar(256)' },
  { table: 'pool_subaccounts', column: 'api_secret', plain: 'varchar(256)' },
  { table: 'areas', column: 'agent_key', plain: 'varchar(64)' },
] as const;

export const secretColumnsMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    for (const { table, column } of secretColumns) {
      await db.schema
        .alterTable(table)
        .alterColumn(column, (c) => c.setDataType('text'))
        .execute();
    }
  },
  async down(db: Kysely<unknown>) {
    if (dialect !== 'postgres') return;
    for (const { table, column, plain } of secretColumns) {
      await db.schema
        .alterTable(table)
        .alterColumn(column, (c) => c.setDataType(plain))
        .execute();
    }
  },
});
