import type { RebootKind, TaskStatus } from '@fbox/contracts';
import {
  type ExpressionBuilder,
  type Insertable,
  type Kysely,
  type Selectable,
  sql,
  type Updateable,
} from 'kysely';
import type { DB } from '../../db/schema.js';
import type { TasksTable } from './task.schema.js';
import { leftLowQuery } from './task-engine.repository.js';

export type TaskRow = Selectable<TasksTable>;
export type TaskItemRow = Selectable<DB['task_items']>;

/** 'reboot' tasks have kinds 'miner' and 'pdu'; 'temp' tasks have the one kind 'temp'. */
export type TaskType = 'reboot' | 'temp';
export interface TaskScope {
  type: TaskType;
  kind: RebootKind | 'temp';
}

/** A history filter: one task's runs, runs started in a time window. */
export interface RunFilter {
  task_id?: number | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

/** An item filter: one run's items, one task's items. */
export interface ItemFilter {
  run_id?: number | undefined;
  task_id?: number | undefined;
}

interface Window {
  limit: number;
  offset: number;
}

/** The shown status of spec §4 as a WHERE condition, so lists filter and page on it in SQL. */
const statusWhere = (eb: ExpressionBuilder<DB, 'tasks'>, status: TaskStatus, now: number) => {
  switch (status) {
    case 'deleted':
      return eb('tasks.state', '=', 'deleted');
    case 'expired':
      return eb.and([eb('tasks.state', '<>', 'deleted'), eb('tasks.end_at', '<=', now)]);
    case 'stopped':
      return eb.and([eb('tasks.state', '=', 'stopped'), eb('tasks.end_at', '>', now)]);
    case 'queued':
      return eb.and([
        eb('tasks.state', '=', 'active'),
        eb('tasks.start_at', '>', now),
        eb('tasks.end_at', '>', now),
      ]);
    case 'running':
      return eb.and([
        eb('tasks.state', '=', 'active'),
        eb('tasks.start_at', '<=', now),
        eb('tasks.end_at', '>', now),
      ]);
  }
};

const runColumns = [
  'task_runs.id',
  'task_runs.task_id',
  'task_runs.started_at',
  'task_runs.finished_at',
  'tasks.name',
  'tasks.state',
  'tasks.start_at',
  'tasks.end_at',
] as const;

/**
 * Kysely queries for what users ask of tasks: the tasks, their groups, runs and items. Every
 * lookup is scoped by the area. The engine's own storage is in task-engine.repository.ts.
 */
export class TaskRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** A task of the area and type (any kind), deleted ones included. */
  find(areaId: number, id: number, type: TaskType) {
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .where('type', '=', type)
      .executeTakeFirst();
  }

  /** The area's groups among these ids. */
  groups(areaId: number, ids: number[]) {
    return this.db
      .selectFrom('miner_groups')
      .select(['id', 'name', 'type'])
      .where('area_id', '=', areaId)
      .where('id', 'in', ids)
      .execute();
  }

  async setGroups(taskId: number, groupIds: number[]) {
    await this.db.deleteFrom('task_groups').where('task_id', '=', taskId).execute();
    await this.db
      .insertInto('task_groups')
      .values(groupIds.map((group_id) => ({ task_id: taskId, group_id })))
      .execute();
  }

  async insert(values: Insertable<TasksTable>): Promise<number> {
    const { id } = await this.db.insertInto('tasks').values(values).returning('id').executeTakeFirstOrThrow();
    return id;
  }

  /** Updates the task if its state is still the one read; false when it changed meanwhile. */
  async updateIfState(id: number, state: string, values: Updateable<TasksTable>): Promise<boolean> {
    const r = await this.db
      .updateTable('tasks')
      .set(values)
      .where('id', '=', id)
      .where('state', '=', state)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Forgets when the task's conditions started (a restarted task observes afresh). */
  async resetTimers(taskId: number) {
    await this.db
      .updateTable('task_miner_state')
      .set({ since_at: null, cool_since: null })
      .where('task_id', '=', taskId)
      .execute();
  }

  /** One page of a scope's tasks, newest first: of one status, or all but deleted ones. */
  async page(areaId: number, scope: TaskScope, status: TaskStatus | undefined, now: number, w: Window) {
    const base = this.db
      .selectFrom('tasks')
      .where('tasks.area_id', '=', areaId)
      .where('tasks.type', '=', scope.type)
      .where('tasks.kind', '=', scope.kind)
      .where((eb) => (status ? statusWhere(eb, status, now) : eb('tasks.state', '<>', 'deleted')));
    const [items, total] = await Promise.all([
      base.selectAll().orderBy('tasks.id', 'desc').limit(w.limit).offset(w.offset).execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(total.n) };
  }

  /** Groups, distinct miner counts and action counts of tasks, in three queries. */
  extras(ids: number[]) {
    return Promise.all([
      this.db
        .selectFrom('task_groups')
        .innerJoin('miner_groups', 'miner_groups.id', 'task_groups.group_id')
        .select(['task_groups.task_id', 'miner_groups.id', 'miner_groups.name'])
        .where('task_groups.task_id', 'in', ids)
        .orderBy('miner_groups.id')
        .execute(),
      this.db
        .selectFrom('task_groups')
        .innerJoin('miner_group_members', 'miner_group_members.group_id', 'task_groups.group_id')
        .select(['task_groups.task_id', sql<number>`count(distinct miner_group_members.miner_id)`.as('n')])
        .where('task_groups.task_id', 'in', ids)
        .groupBy('task_groups.task_id')
        .execute(),
      this.db
        .selectFrom('task_items')
        .select(['task_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('task_id', 'in', ids)
        .groupBy('task_id')
        .execute(),
    ]);
  }

  /** Per temperature task: the miners it left in low power mode (see `leftLowQuery`). */
  switchedLowCounts(ids: number[]) {
    return leftLowQuery(this.db)
      .select(['s.task_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('s.task_id', 'in', ids)
      .groupBy('s.task_id')
      .execute();
  }

  private runsQuery(areaId: number, scope: TaskScope, f: RunFilter) {
    let q = this.db
      .selectFrom('task_runs')
      .innerJoin('tasks', 'tasks.id', 'task_runs.task_id')
      .where('task_runs.area_id', '=', areaId)
      .where('tasks.type', '=', scope.type)
      .where('tasks.kind', '=', scope.kind);
    if (f.task_id !== undefined) q = q.where('task_runs.task_id', '=', f.task_id);
    if (f.from !== undefined) q = q.where('task_runs.started_at', '>=', f.from);
    if (f.to !== undefined) q = q.where('task_runs.started_at', '<=', f.to);
    return q;
  }

  /** Runs of the filter with their task's name and state, newest first. */
  runs(areaId: number, scope: TaskScope, f: RunFilter, w: Window) {
    return this.runsQuery(areaId, scope, f)
      .select(runColumns)
      .orderBy('task_runs.started_at', 'desc')
      .orderBy('task_runs.id', 'desc')
      .limit(w.limit)
      .offset(w.offset)
      .execute();
  }

  async countRuns(areaId: number, scope: TaskScope, f: RunFilter): Promise<number> {
    const r = await this.runsQuery(areaId, scope, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Per run: distinct miners, and items acknowledged, failed (or timed out) and pending. */
  async runCounts(runIds: number[]) {
    const counts = [];
    for (let i = 0; i < runIds.length; i += 500) {
      const part = await this.db
        .selectFrom('task_items')
        .select([
          'run_id',
          sql<number>`count(distinct miner_id)`.as('miners'),
          sql<number>`sum(case when status = 'acknowledged' then 1 else 0 end)`.as('ack'),
          sql<number>`sum(case when status in ('failed', 'timeout') then 1 else 0 end)`.as('failed'),
          sql<number>`sum(case when status = 'pending' then 1 else 0 end)`.as('pending'),
        ])
        .where('run_id', 'in', runIds.slice(i, i + 500))
        .groupBy('run_id')
        .execute();
      counts.push(...part);
    }
    return counts;
  }

  /** The task a run of the area belongs to. */
  async runTask(areaId: number, runId: number): Promise<number | undefined> {
    const run = await this.db
      .selectFrom('task_runs')
      .select(['task_id'])
      .where('id', '=', runId)
      .where('area_id', '=', areaId)
      .executeTakeFirst();
    return run?.task_id;
  }

  private itemsQuery(areaId: number, f: ItemFilter) {
    let q = this.db.selectFrom('task_items').where('area_id', '=', areaId);
    if (f.run_id !== undefined) q = q.where('run_id', '=', f.run_id);
    if (f.task_id !== undefined) q = q.where('task_id', '=', f.task_id);
    return q;
  }

  /** Items of the filter, newest first. */
  items(areaId: number, f: ItemFilter, w: Window): Promise<TaskItemRow[]> {
    return this.itemsQuery(areaId, f)
      .selectAll()
      .orderBy('id', 'desc')
      .limit(w.limit)
      .offset(w.offset)
      .execute();
  }

  async countItems(areaId: number, f: ItemFilter): Promise<number> {
    const r = await this.itemsQuery(areaId, f)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }
}
