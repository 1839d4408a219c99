import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { TaskMinerStateTable } from './task.schema.js';

export type MinerStateRow = Selectable<TaskMinerStateTable>;

/** A miner as the engine's evaluation reads it: its device state and FBOX. */
const minerColumns = [
  'm.fbox_id',
  'm.tank_id',
  'm.sn',
  'm.worker',
  'm.ip',
  'm.outlet',
  'm.online',
  'm.mode',
  'm.hashrate_realtime',
  'fboxes.name as fbox_name',
] as const;

/**
 * The miners each task left in low power mode: its last action on them was `mode_low`, they still
 * report low, and they and their FBOX are in the task's mine. What a temperature task's stop or
 * delete may switch back (`leftLow`), and what its queue row counts (`switched_low_count`).
 */
export const leftLowQuery = (db: Kysely<DB>) =>
  db
    .selectFrom('task_miner_state as s')
    .innerJoin('tasks', 'tasks.id', 's.task_id')
    .innerJoin('miner_state as m', 'm.miner_id', 's.miner_id')
    .innerJoin('fboxes', 'fboxes.id', 'm.fbox_id')
    .where('s.last_action', '=', 'mode_low')
    .where('m.mode', '=', 'low')
    .whereRef('m.area_id', '=', 'tasks.area_id')
    .whereRef('fboxes.area_id', '=', 'tasks.area_id');

/** One action as it is written: the miner's state change, its item and its command row. */
export interface ActionRecord {
  minerId: number;
  /** The action count read: the state advances only from it. */
  countRead: number;
  state: Updateable<TaskMinerStateTable>;
  /** A power-on completes a step the engine left pending (`on_due_at` set). */
  completesPowerOn: boolean;
  item: Omit<Insertable<DB['task_items']>, 'run_id'>;
  command: Insertable<DB['commands']>;
}

/**
 * Kysely queries of the task engine (task.engine.ts): leases on due tasks, the miners a task
 * watches with their timing state (`task_miner_state`), and its runs, items and command rows.
 */
export class TaskEngineRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Tasks due for evaluation and not leased, the most overdue first. */
  due(now: number, limit: number) {
    return this.db
      .selectFrom('tasks')
      .select(['id', 'claimed_by'])
      .where('next_eval_at', '<=', now)
      .where('lease_until', '<=', now)
      .orderBy('next_eval_at')
      .limit(limit)
      .execute();
  }

  /** Leases a due task to `owner` until `until`; false when another process took it first. */
  async claim(id: number, owner: string, until: number, now: number): Promise<boolean> {
    const claimed = await this.db
      .updateTable('tasks')
      .set({ claimed_by: owner, lease_until: until })
      .where('id', '=', id)
      .where('next_eval_at', '<=', now)
      .where('lease_until', '<=', now)
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) > 0;
  }

  /** Gives the lease back with the task's next evaluation time. */
  async release(id: number, owner: string, next: number | null, now: number) {
    await this.db
      .updateTable('tasks')
      .set({ claimed_by: null, lease_until: 0, next_eval_at: next, last_evaluated_at: now })
      .where('id', '=', id)
      .where('claimed_by', '=', owner)
      .execute();
  }

  task(id: number) {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The pending item a command belongs to. */
  pendingItemOf(commandId: string) {
    return this.db
      .selectFrom('task_items')
      .select(['id', 'run_id'])
      .where('command_id', '=', commandId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
  }

  async settleItem(id: number, status: 'acknowledged' | 'failed' | 'timeout', error: string, at: number) {
    await this.db
      .updateTable('task_items')
      .set({ status, error, finished_at: at })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** Marks runs finished when none of their items is pending and no PDU power-on is still due. */
  async finishRuns(runIds: number[], now: number) {
    await this.db
      .updateTable('task_runs')
      .set({ finished_at: now })
      .where('id', 'in', runIds)
      .where('finished_at', 'is', null)
      .where((eb) =>
        eb.not(
          eb.or([
            eb.exists(
              eb
                .selectFrom('task_items')
                .select('task_items.id')
                .whereRef('task_items.run_id', '=', 'task_runs.id')
                .where('task_items.status', '=', 'pending'),
            ),
            eb.exists(
              eb
                .selectFrom('task_miner_state')
                .select('task_miner_state.miner_id')
                .whereRef('task_miner_state.pending_run_id', '=', 'task_runs.id'),
            ),
          ]),
        ),
      )
      .execute();
  }

  /** The task's pending items with the state of their command. */
  openItems(taskId: number) {
    return this.db
      .selectFrom('task_items')
      .innerJoin('commands', 'commands.id', 'task_items.command_id')
      .select([
        'task_items.id',
        'task_items.run_id',
        'task_items.command_id',
        'commands.status',
        'commands.error',
        'commands.sent_at',
        'commands.acked_at',
      ])
      .where('task_items.task_id', '=', taskId)
      .where('task_items.status', '=', 'pending')
      .execute();
  }

  /** The task's pending items whose command row is gone (its FBOX was deleted). */
  orphanItems(taskId: number) {
    return this.db
      .selectFrom('task_items')
      .select(['id', 'run_id'])
      .where('task_id', '=', taskId)
      .where('status', '=', 'pending')
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('commands')
              .select('commands.id')
              .whereRef('commands.id', '=', 'task_items.command_id'),
          ),
        ),
      )
      .execute();
  }

  /** When the task's earliest pending PDU power-on is due, if any. */
  async nextPowerOn(taskId: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('task_miner_state')
      .select((eb) => eb.fn.min<number>('on_due_at').as('due'))
      .where('task_id', '=', taskId)
      .where('on_due_at', 'is not', null)
      .executeTakeFirst();
    return row?.due == null ? null : Number(row.due);
  }

  async hasPendingItem(taskId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('task_items')
      .select('id')
      .where('task_id', '=', taskId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * The task's miners (members of its groups, in its area) with their readings and timing state;
   * a miner new to the task has no state yet (`s_task_id` null).
   */
  watchedMiners(taskId: number, areaId: number) {
    const members = this.db
      .selectFrom('miner_group_members')
      .innerJoin('task_groups', 'task_groups.group_id', 'miner_group_members.group_id')
      .where('task_groups.task_id', '=', taskId)
      .select('miner_group_members.miner_id')
      .distinct();
    return this.db
      .selectFrom('miner_state as m')
      .leftJoin('fboxes', 'fboxes.id', 'm.fbox_id')
      .leftJoin('fbox_state as fs', 'fs.fbox_id', 'm.fbox_id')
      .leftJoin('tank_state as ts', 'ts.tank_id', 'm.tank_id')
      .leftJoin('task_miner_state as s', (j) =>
        j.onRef('s.miner_id', '=', 'm.miner_id').on('s.task_id', '=', taskId),
      )
      .where('m.miner_id', 'in', members)
      .where('m.area_id', '=', areaId)
      .select([
        'm.miner_id',
        ...minerColumns,
        'm.chip_max_temp',
        'fs.temperature as fbox_temp',
        'ts.oil_out_temp',
        's.task_id as s_task_id',
        's.since_at',
        's.cool_since',
        's.action_count',
        's.last_action_at',
        's.last_action',
        's.on_due_at',
        's.pending_run_id',
      ])
      .orderBy('m.miner_id')
      .execute();
  }

  /** Gives miners new to the task their (empty) timing state. */
  async addStates(taskId: number, minerIds: number[]) {
    for (let i = 0; i < minerIds.length; i += 500) {
      await this.db
        .insertInto('task_miner_state')
        .values(
          minerIds.slice(i, i + 500).map((miner_id) => ({ task_id: taskId, miner_id, action_count: 0 })),
        )
        .onConflict((oc) => oc.columns(['task_id', 'miner_id']).doNothing())
        .execute();
    }
  }

  /** Sets a timing column to `now` where it was unset, and clears it, for these miners. */
  async setTimers(
    taskId: number,
    column: 'since_at' | 'cool_since',
    start: number[],
    clear: number[],
    now: number,
  ) {
    for (let i = 0; i < start.length; i += 500) {
      await this.db
        .updateTable('task_miner_state')
        .set({ [column]: now })
        .where('task_id', '=', taskId)
        .where('miner_id', 'in', start.slice(i, i + 500))
        .where(column, 'is', null)
        .execute();
    }
    for (let i = 0; i < clear.length; i += 500) {
      await this.db
        .updateTable('task_miner_state')
        .set({ [column]: null })
        .where('task_id', '=', taskId)
        .where('miner_id', 'in', clear.slice(i, i + 500))
        .execute();
    }
  }

  /** The task's miners whose outlet is due to be switched on again, with their state. */
  powerOnDue(taskId: number, now: number) {
    return this.db
      .selectFrom('task_miner_state as s')
      .innerJoin('miner_state as m', 'm.miner_id', 's.miner_id')
      .leftJoin('fboxes', 'fboxes.id', 'm.fbox_id')
      .selectAll('s')
      .select(minerColumns)
      .where('s.task_id', '=', taskId)
      .where('s.on_due_at', '<=', now)
      .orderBy('s.on_due_at')
      .orderBy('s.miner_id')
      .execute();
  }

  /** The miners the task left in low power mode (see `leftLowQuery`), with their state. */
  leftLow(taskId: number) {
    return leftLowQuery(this.db)
      .selectAll('s')
      .select(minerColumns)
      .where('s.task_id', '=', taskId)
      .orderBy('s.miner_id')
      .execute();
  }

  /** Forgets pending power-ons (the miners' outlets went missing). */
  async forgetPowerOn(taskId: number, minerIds: number[]) {
    await this.db
      .updateTable('task_miner_state')
      .set({ on_due_at: null, pending_run_id: null })
      .where('task_id', '=', taskId)
      .where('miner_id', 'in', minerIds)
      .execute();
  }

  /**
   * Records one run of actions in one transaction: the task must still be leased to `owner` (and
   * active, unless it completes a step of a run), a run is opened (or `runId` reopened), and each action whose miner
   * state still holds the count read advances it and writes its item and command row. Returns the
   * ids of the commands written, or null when the lease was lost (nothing written).
   */
  recordActions(
    task: { id: number; area_id: number; updated_at: number },
    owner: string,
    options: { batch: boolean; now: number; runId?: number | null | undefined },
    actions: ActionRecord[],
  ): Promise<string[] | null> {
    const { now } = options;
    return this.db.transaction().execute(async (trx) => {
      const mine = await trx
        .updateTable('tasks')
        .set(options.batch ? { last_batch_at: now } : { updated_at: task.updated_at })
        .where('id', '=', task.id)
        .where('claimed_by', '=', owner)
        .$if(options.runId === undefined, (q) => q.where('state', '=', 'active'))
        .executeTakeFirst();
      if (Number(mine.numUpdatedRows) === 0) return null;
      return new TaskEngineRepository(trx).writeRun(task, options.runId ?? null, now, actions);
    });
  }

  /**
   * Ends a task as a user asked (`values`: stopped or deleted), if its state is still the one read,
   * and writes a run of actions with it, in one transaction. Returns the ids of the commands
   * written, or null when the state changed meanwhile (nothing written).
   */
  endWithRun(
    task: { id: number; area_id: number; state: string },
    values: Updateable<DB['tasks']>,
    now: number,
    actions: ActionRecord[],
  ): Promise<string[] | null> {
    return this.db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('tasks')
        .set(values)
        .where('id', '=', task.id)
        .where('state', '=', task.state)
        .executeTakeFirst();
      if (Number(ended.numUpdatedRows) === 0) return null;
      return actions.length === 0 ? [] : new TaskEngineRepository(trx).writeRun(task, null, now, actions);
    });
  }

  /**
   * Opens a run (or reopens `runId`) and writes each action whose miner state still holds the count
   * read: the state advances, its item and command row are written. Call it inside a transaction.
   * A new run none of whose actions was written is not kept.
   */
  private async writeRun(
    task: { id: number; area_id: number },
    reopen: number | null,
    now: number,
    actions: ActionRecord[],
  ): Promise<string[]> {
    let runId = reopen;
    if (runId === null) {
      runId = (
        await this.db
          .insertInto('task_runs')
          .values({ task_id: task.id, area_id: task.area_id, started_at: now, finished_at: null })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      await this.db.updateTable('task_runs').set({ finished_at: null }).where('id', '=', runId).execute();
    }
    const written: string[] = [];
    for (const a of actions) {
      const advanced = await this.db
        .updateTable('task_miner_state')
        .set({ ...a.state, ...(a.item.action === 'power_off' && { pending_run_id: runId }) })
        .where('task_id', '=', task.id)
        .where('miner_id', '=', a.minerId)
        .where('action_count', '=', a.countRead)
        .$if(a.completesPowerOn, (q) => q.where('on_due_at', 'is not', null))
        .executeTakeFirst();
      if (Number(advanced.numUpdatedRows) === 0) continue;
      await this.db
        .insertInto('task_items')
        .values({ ...a.item, run_id: runId })
        .execute();
      await this.db.insertInto('commands').values(a.command).execute();
      written.push(a.command.id);
    }
    if (written.length === 0 && reopen === null)
      await this.db.deleteFrom('task_runs').where('id', '=', runId).execute();
    return written;
  }
}
