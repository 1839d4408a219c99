import type { Kysely, Migration } from 'kysely';

/**
 * Access authority of sub-accounts (spec §3, §6): `authority` is 'administrator' or 'operator' for a
 * sub-account and '' for a master; `rules` is the JSON list of device actions an operator may run.
 * Both dialects; earlier migrations are never edited.
 */
export const accessMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('authority', 'varchar(16)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('rules', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('rules').execute();
    await db.schema.alterTable('users').dropColumn('authority').execute();
  },
};
