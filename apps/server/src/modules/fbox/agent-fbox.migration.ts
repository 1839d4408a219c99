import type { Kysely, Migration } from 'kysely';

/**
 * Which FBOX a site agent registered as (docs/mqtt.md, "Registering with the Agent Key"): one per
 * mine and agent client id, so an agent that registers again gets the same box. The link goes with
 * its box (deleted in the console: the agent gets a new one next time) and with its mine.
 */
export const agentFboxesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('agent_fboxes')
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('client_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('fbox_id', 'integer', (c) =>
        c.notNull().unique().references('fboxes.id').onDelete('cascade'),
      )
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('agent_fboxes_pk', ['area_id', 'client_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('agent_fboxes').execute();
  },
};
