import type { Kysely, Migration } from 'kysely';
import type { Dialect } from '../../db/database.js';
import { notNull, withId } from '../../db/migration-helpers.js';

const num = 'double precision';

/**
 * Automation (spec §3 Task / Miner group, DESIGN §8): miner groups per task type, reboot and
 * temperature tasks with their groups, the engine's per-miner timing state, runs and items.
 *
 * Exactly-once: a task is evaluated by the process holding its lease (`claimed_by`, `lease_until`);
 * an action is one transaction that advances `task_miner_state`, inserts the item (unique
 * `action_key`) and the command row (id chosen up front), and only then is the command published.
 */
export const tasksMigration = (dialect: Dialect): Migration => ({
  async up(db: Kysely<unknown>) {
    await withId(db.schema.createTable('miner_groups'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      .addColumn('type', 'varchar(16)', notNull)
      .addColumn('name', 'varchar(50)', notNull)
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .execute();
    await db.schema
      .createIndex('miner_groups_area_type_name')
      .unique()
      .on('miner_groups')
      .columns(['area_id', 'type', 'name'])
      .execute();

    await db.schema
      .createTable('miner_group_members')
      .addColumn('group_id', 'integer', (c) => c.notNull().references('miner_groups.id').onDelete('cascade'))
      .addColumn('miner_id', 'integer', (c) => c.notNull().references('miners.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('miner_group_members_pk', ['group_id', 'miner_id'])
      .execute();
    await db.schema
      .createIndex('miner_group_members_miner')
      .on('miner_group_members')
      .column('miner_id')
      .execute();

    await withId(db.schema.createTable('tasks'), dialect)
      .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
      // 'reboot' | 'temp'; kind: 'miner' | 'pdu' for reboot tasks, 'temp' for temperature tasks.
      .addColumn('type', 'varchar(8)', notNull)
      .addColumn('kind', 'varchar(8)', notNull)
      .addColumn('name', 'varchar(50)', notNull)
      .addColumn('duration_seconds', 'integer', notNull)
      .addColumn('hashrate_threshold', num)
      .addColumn('reboot_interval_seconds', 'integer')
      .addColumn('reboot_limit', 'integer')
      .addColumn('simultaneous_count', 'integer')
      .addColumn('batch_interval_seconds', 'integer')
      .addColumn('power_off_seconds', 'integer')
      .addColumn('source', 'varchar(16)')
      .addColumn('threshold', num)
      .addColumn('hysteresis', num)
      .addColumn('start_at', 'bigint', notNull)
      .addColumn('end_at', 'bigint', notNull)
      // 'active' | 'stopped' | 'deleted'; the shown status also follows from the clock.
      .addColumn('state', 'varchar(8)', notNull)
      // When the engine looks at the task next; null: nothing left to do.
      .addColumn('next_eval_at', 'bigint')
      .addColumn('claimed_by', 'varchar(64)')
      .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_evaluated_at', 'bigint')
      // Last batch of switches (reboot tasks): the next waits the batch interval (+ Delay Switch).
      .addColumn('last_batch_at', 'bigint')
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('updated_at', 'bigint', notNull)
      .addColumn('deleted_at', 'bigint')
      .execute();
    await db.schema.createIndex('tasks_area_type').on('tasks').columns(['area_id', 'type', 'kind']).execute();
    await db.schema.createIndex('tasks_due').on('tasks').column('next_eval_at').execute();

    await db.schema
      .createTable('task_groups')
      .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
      .addColumn('group_id', 'integer', (c) => c.notNull().references('miner_groups.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('task_groups_pk', ['task_id', 'group_id'])
      .execute();
    await db.schema.createIndex('task_groups_group').on('task_groups').column('group_id').execute();

    await db.schema
      .createTable('task_miner_state')
      .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
      .addColumn('miner_id', 'integer', (c) => c.notNull().references('miners.id').onDelete('cascade'))
      // Reboot: below the hashrate condition since; temperature: above the threshold since.
      .addColumn('since_at', 'bigint')
      // Temperature: at or below threshold − hysteresis since.
      .addColumn('cool_since', 'bigint')
      .addColumn('action_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_action_at', 'bigint')
      .addColumn('last_action', 'varchar(16)')
      // PDU: the outlet is off and must be switched on at this time (in run `pending_run_id`).
      .addColumn('on_due_at', 'bigint')
      .addColumn('pending_run_id', 'integer')
      .addPrimaryKeyConstraint('task_miner_state_pk', ['task_id', 'miner_id'])
      .execute();
    await db.schema
      .createIndex('task_miner_state_on_due')
      .on('task_miner_state')
      .columns(['task_id', 'on_due_at'])
      .execute();

    await withId(db.schema.createTable('task_runs'), dialect)
      .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
      .addColumn('area_id', 'integer', notNull)
      .addColumn('started_at', 'bigint', notNull)
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('task_runs_task')
      .on('task_runs')
      .columns(['task_id', 'started_at'])
      .execute();
    await db.schema
      .createIndex('task_runs_area')
      .on('task_runs')
      .columns(['area_id', 'started_at'])
      .execute();

    await withId(db.schema.createTable('task_items'), dialect)
      .addColumn('run_id', 'integer', (c) => c.notNull().references('task_runs.id').onDelete('cascade'))
      .addColumn('task_id', 'integer', notNull)
      .addColumn('area_id', 'integer', notNull)
      // History outlives the miner: identity is copied, no foreign key.
      .addColumn('miner_id', 'integer', notNull)
      .addColumn('worker', 'varchar(128)', notNull)
      .addColumn('sn', 'varchar(64)', notNull)
      .addColumn('ip', 'varchar(64)', notNull)
      .addColumn('fbox_name', 'varchar(100)', notNull)
      .addColumn('action', 'varchar(16)', notNull)
      .addColumn('reading', num)
      // `<task>:<miner>:<action>:<n>`: the n-th such action of the task on the miner, at most once.
      .addColumn('action_key', 'varchar(80)', (c) => c.notNull().unique())
      .addColumn('command_id', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('status', 'varchar(16)', notNull)
      .addColumn('error', 'varchar(500)', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', notNull)
      .addColumn('finished_at', 'bigint')
      .execute();
    await db.schema.createIndex('task_items_run').on('task_items').columns(['run_id', 'id']).execute();
    await db.schema.createIndex('task_items_task').on('task_items').columns(['task_id', 'id']).execute();
    await db.schema
      .createIndex('task_items_status')
      .on('task_items')
      .columns(['status', 'task_id'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'task_items',
      'task_runs',
      'task_miner_state',
      'task_groups',
      'tasks',
      'miner_group_members',
      'miner_groups',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
});
