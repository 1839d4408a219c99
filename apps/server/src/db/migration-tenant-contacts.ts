import { type Kysely, type Migration, sql } from 'kysely';

/**
 * Email and phone are unique per tenant: among a master account and its sub-accounts (the tenant
 * is `coalesce(parent_id, id)`), emails in any letter case. Services check first to answer with
 * the field; these indexes settle two requests racing. Per tenant, not global, so a refusal never
 * tells one master that another master's account uses the address. Empty values (not given) are
 * left out. Both dialects; earlier migrations are never edited.
 */
export const tenantContactsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('users_tenant_email')
      .on('users')
      .unique()
      .expression(sql`coalesce(parent_id, id), lower(email)`)
      .where(sql.ref('email'), '<>', sql.lit(''))
      .execute();
    await db.schema
      .createIndex('users_tenant_mobile')
      .on('users')
      .unique()
      .expression(sql`coalesce(parent_id, id), mobile`)
      .where(sql.ref('mobile'), '<>', sql.lit(''))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('users_tenant_mobile').execute();
    await db.schema.dropIndex('users_tenant_email').execute();
  },
};
