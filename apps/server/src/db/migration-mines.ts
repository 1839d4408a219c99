import { type Kysely, type Migration, sql } from 'kysely';
import { newAgentKey } from '../lib/agent-key.js';
import type { Dialect } from './database.js';
import { withId } from './migration-helpers.js';

/**
 * Manage Mines (spec §3, §5): each mine gets an Agent Key, a comment, a coordinator contact and an
 * electricity price, and `mqtt_clients` records every MQTT client that connected for it (client key
 * records). Existing mines get their own random Agent Key and the price 0.05 per kWh
 * (`mineLimits.defaultElectricityPrice`), which the Manage Mines screen shows for correction.
 */
export const minesMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('areas')
      .addColumn('agent_key', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('areas')
      .addColumn('comment', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('areas')
      .addColumn('contact', 'varchar(200)', (c) => c.notNull().defaultTo(''))
      .execute();
    await db.schema
      .alterTable('areas')
      .addColumn('electricity_price', 'double precision', (c) => c.notNull().defaultTo(0.05))
      .execute();
    const { rows } = await sql<{ id: number }>`select id from areas`.execute(db);
    for (const { id } of rows) {
      await sql`update areas set agent_key = ${newAgentKey()} where id = ${id}`.execute(db);
    }

    await withId(db.schema.createTable('mqtt_clients'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('client_key', 'varchar(128)', (c) => c.notNull())
      .addColumn('client_id', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('fbox_id', 'integer', (c) => c.references('fboxes.id').onDelete('cascade'))
      .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('computer_name', 'varchar(128)', (c) => c.notNull().defaultTo(''))
      .addColumn('version', 'varchar(64)', (c) => c.notNull().defaultTo(''))
      .addColumn('online', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('first_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('mqtt_clients_key')
      .unique()
      .on('mqtt_clients')
      .columns(['area_id', 'client_key', 'client_id'])
      .execute();
    // Gateway revocation and re-admission look records up by the FBOX's username alone.
    await db.schema.createIndex('mqtt_clients_client_key').on('mqtt_clients').column('client_key').execute();
    await db.schema.createIndex('mqtt_clients_fbox_id').on('mqtt_clients').column('fbox_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('mqtt_clients').execute();
    for (const column of ['electricity_price', 'contact', 'comment', 'agent_key']) {
      await db.schema.alterTable('areas').dropColumn(column).execute();
    }
  },
});
