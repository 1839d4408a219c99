import type { Kysely, Migration } from 'kysely';

/**
 * The inbox (issue 13): messages carry their kind and parameters so the web renders them in the
 * reader's current language (title and content stay as an English fallback), and alert messages
 * name their alert. The Messages screen lists a user's messages newest first.
 */
export const inboxMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('messages')
      .addColumn('kind', 'varchar(32)', (c) => c.notNull().defaultTo('system'))
      .execute();
    await db.schema.alterTable('messages').addColumn('alert_id', 'integer').execute();
    await db.schema
      .alterTable('messages')
      .addColumn('params', 'text', (c) => c.notNull().defaultTo('{}'))
      .execute();
    await db.schema
      .createIndex('messages_user_created')
      .on('messages')
      .columns(['user_id', 'created_at', 'id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('messages_user_created').execute();
    for (const column of ['params', 'alert_id', 'kind'])
      await db.schema.alterTable('messages').dropColumn(column).execute();
  },
};
