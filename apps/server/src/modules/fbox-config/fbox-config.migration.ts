import type { Kysely, Migration } from 'kysely';

/**
 * FBOX configuration and account switches (migration 0008), both dialects:
 * - `fbox_config_defaults`: one row per mine, the configuration every new FBOX of it takes;
 * - `fbox_configs`: an FBOX's own values (null = inherited from the mine defaults or built-ins);
 * - `miner_pool_configs`: each miner's configured pool and worker (Lock Pool's hijack guard);
 * - `overclock_policies`: the Auto Overclock policy last sent to a master's miners.
 */
export const fboxConfigMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('fbox_config_defaults')
      .addColumn('area_id', 'integer', (c) => c.primaryKey().references('areas.id').onDelete('cascade'))
      .addColumn('voltage_min', 'integer', (c) => c.notNull())
      .addColumn('voltage_max', 'integer', (c) => c.notNull())
      .addColumn('temperature_max', 'integer', (c) => c.notNull())
      .addColumn('humidity_max', 'integer', (c) => c.notNull())
      .addColumn('delay_switch_value', 'integer', (c) => c.notNull())
      .addColumn('reporting_interval', 'integer', (c) => c.notNull())
      .addColumn('updated_by', 'integer')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('fbox_configs')
      .addColumn('fbox_id', 'integer', (c) => c.primaryKey().references('fboxes.id').onDelete('cascade'))
      .addColumn('voltage_min', 'integer')
      .addColumn('voltage_max', 'integer')
      .addColumn('temperature_max', 'integer')
      .addColumn('humidity_max', 'integer')
      .addColumn('delay_switch_value', 'integer')
      .addColumn('reporting_interval', 'integer')
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('miner_pool_configs')
      .addColumn('miner_id', 'integer', (c) => c.primaryKey().references('miners.id').onDelete('cascade'))
      .addColumn('pool_address', 'varchar(256)', (c) => c.notNull())
      .addColumn('worker', 'varchar(128)', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('overclock_policies')
      .addColumn('master_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('min', 'integer', (c) => c.notNull())
      .addColumn('max', 'integer', (c) => c.notNull())
      .addColumn('batch_id', 'varchar(64)')
      .addColumn('miners', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('sent_at', 'bigint')
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of ['overclock_policies', 'miner_pool_configs', 'fbox_configs', 'fbox_config_defaults'])
      await db.schema.dropTable(table).execute();
  },
};
