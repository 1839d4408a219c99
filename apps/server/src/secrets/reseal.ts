import { type Kysely, sql } from 'kysely';
import type { DB } from '../db/schema.js';
import type { SecretBox } from '../lib/secret-box.js';

const chunkSize = 500;

/** Every column holding a secret, with the key naming its row. '' and null mean "none stored". */
export const sealedColumns = [
  { table: 'users', keys: ['id'], column: 'totp_secret' },
  { table: 'users', keys: ['id'], column: 'totp_pending_secret' },
  { table: 'fboxes', keys: ['id'], column: 'mqtt_password' },
  { table: 'fbox_collectors', keys: ['fbox_id', 'no'], column: 'password' },
  { table: 'pool_subaccounts', keys: ['id'], column: 'api_key' },
  { table: 'pool_subaccounts', keys: ['id'], column: 'api_secret' },
  { table: 'areas', keys: ['id'], column: 'agent_key' },
] as const;

/**
 * Seals every stored secret still in plain form (from before encryption) and reseals those under
 * a previous key (after a rotation), so afterwards only SECRET_KEY is needed. Run at each start:
 * the query returns only rows needing work, so a done database costs one scan per column. Each
 * write names the value it replaces, so processes starting together never overwrite each other.
 * @returns how many values it found to rewrite (another process may have done some first).
 * @throws SecretKeyError when a value was sealed under a key this server was not given.
 */
export const resealSecrets = async (db: Kysely<DB>, box: SecretBox): Promise<number> => {
  let rewritten = 0;
  for (const { table, keys, column } of sealedColumns) {
    const ref = sql.ref(column);
    const { rows } = await sql<Record<string, unknown> & { value: string }>`
      select ${sql.join(keys.map((k) => sql.ref(k)))}, ${ref} as value from ${sql.table(table)}
      where ${ref} is not null and ${ref} <> '' and ${ref} not like ${`enc:v1:${box.keyId}:%`}`.execute(db);
    // One transaction per chunk: a first start over thousands of rows would otherwise pay a
    // commit per value, while chunks keep each lock short for processes starting alongside.
    for (let i = 0; i < rows.length; i += chunkSize) {
      await db.transaction().execute(async (trx) => {
        for (const row of rows.slice(i, i + chunkSize)) {
          const sealed = box.seal(box.open(row.value));
          const match = sql.join(
            keys.map((k) => sql`${sql.ref(k)} = ${row[k]}`),
            sql` and `,
          );
          await sql`update ${sql.table(table)} set ${ref} = ${sealed} where ${match} and ${ref} = ${row.value}`.execute(
            trx,
          );
        }
      });
    }
    rewritten += rows.length;
  }
  return rewritten;
};
