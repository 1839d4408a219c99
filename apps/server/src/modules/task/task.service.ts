import {
  Code,
  editAllowed,
  type GroupType,
  groupTypeOfKind,
  type RebootKind,
  type RebootTask,
  type RebootTaskAddBody,
  type TaskItem,
  type TaskRun,
  type TaskStatus,
  type TaskTransition,
  type TempSource,
  type TempTask,
  type TempTaskAddBody,
  transitionAllowed,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound, requireManage } from '../device-access.js';
import {
  type ItemFilter,
  type RunFilter,
  type TaskItemRow,
  TaskRepository,
  type TaskRow,
  type TaskScope,
  type TaskType,
} from './task.repository.js';

export type { TaskRow, TaskScope, TaskType } from './task.repository.js';

/** `taskEngine` is read at call time (it is decorated after this service). */
type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'areas' | 'taskEngine'>;

/** The shown status of spec §4, from the stored state and the clock. */
export const statusOf = (t: Pick<TaskRow, 'state' | 'start_at' | 'end_at'>, now: number): TaskStatus => {
  if (t.state === 'deleted') return 'deleted';
  if (t.end_at <= now) return 'expired';
  if (t.state === 'stopped') return 'stopped';
  return t.start_at > now ? 'queued' : 'running';
};

const itemStatusOfCommand = { acknowledged: 'acknowledged', failed: 'failed', timed_out: 'timeout' } as const;
export type SettledCommandStatus = keyof typeof itemStatusOfCommand;
export const itemStatusOf = (status: SettledCommandStatus) => itemStatusOfCommand[status];

const refusal: Record<
  TaskTransition,
  'api.taskCannotStart' | 'api.taskCannotStop' | 'api.taskAlreadyDeleted'
> = {
  start: 'api.taskCannotStart',
  stop: 'api.taskCannotStop',
  delete: 'api.taskAlreadyDeleted',
};

type RebootFields = Omit<RebootTaskAddBody, 'area_id' | 'kind'>;
type TempFields = Omit<TempTaskAddBody, 'area_id'>;

const rebootColumns = (b: RebootFields & { kind: RebootKind }) => ({
  name: b.name,
  duration_seconds: b.duration_seconds,
  hashrate_threshold: b.hashrate_threshold,
  reboot_interval_seconds: b.reboot_interval_seconds,
  reboot_limit: b.reboot_limit,
  simultaneous_count: b.simultaneous_count,
  batch_interval_seconds: b.batch_interval_seconds,
  power_off_seconds: b.kind === 'pdu' ? (b.power_off_seconds ?? null) : null,
  start_at: b.start_at,
  end_at: b.end_at,
});

const tempColumns = (b: TempFields) => ({
  name: b.name,
  duration_seconds: b.duration_seconds,
  source: b.source,
  threshold: b.threshold,
  hysteresis: b.hysteresis,
  start_at: b.start_at,
  end_at: b.end_at,
});

/**
 * Reboot and temperature tasks (spec §3–§5): CRUD, the status machine, history (runs) and items.
 * The engine (task.engine.ts) acts on them; this service only writes what users ask for.
 */
export class TaskService {
  constructor(private readonly deps: Deps) {}

  private get repo() {
    return new TaskRepository(this.deps.db);
  }

  /** The task of this scope in the area, deleted ones included; anything else is "not found". */
  async find(areaId: number, id: number, scope: TaskScope): Promise<TaskRow> {
    const row = await this.findAnyKind(areaId, id, scope.type);
    if (scope.type === 'reboot' && row.kind !== scope.kind) notFound();
    return row;
  }

  /** Tasks of one scope in one type (reboot tasks of any kind: history spans a kind). */
  private async findAnyKind(areaId: number, id: number, type: TaskType): Promise<TaskRow> {
    return (await this.repo.find(areaId, id, type)) ?? notFound();
  }

  /** The groups must be of the area (else "not found") and of the task's group type. */
  private async checkGroups(repo: TaskRepository, areaId: number, ids: number[], type: GroupType) {
    const unique = [...new Set(ids)];
    const rows = await repo.groups(areaId, unique);
    if (rows.length !== unique.length) notFound();
    const wrong = rows.find((g) => g.type !== type);
    if (wrong) throw new ApiError(Code.CONFLICT, 'api.groupWrongType', { group: wrong.name });
    return unique;
  }

  /** Runs `work` in one transaction with a repository on it. */
  private inTransaction<T>(work: (repo: TaskRepository) => Promise<T>): Promise<T> {
    return this.deps.db.transaction().execute((trx: Kysely<DB>) => work(new TaskRepository(trx)));
  }

  private async create(
    user: AreaCaller,
    areaId: number,
    scope: TaskScope,
    groupIds: number[],
    columns: ReturnType<typeof rebootColumns> | ReturnType<typeof tempColumns>,
  ): Promise<number> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    const now = this.deps.clock();
    const groupType: GroupType = scope.kind === 'temp' ? 'temp_mode' : groupTypeOfKind[scope.kind];
    return this.inTransaction(async (repo) => {
      const groups = await this.checkGroups(repo, areaId, groupIds, groupType);
      const id = await repo.insert({
        area_id: areaId,
        type: scope.type,
        kind: scope.kind,
        ...columns,
        state: 'active',
        next_eval_at: now,
        claimed_by: null,
        last_evaluated_at: null,
        last_batch_at: null,
        created_by: user.id,
        created_at: now,
        updated_at: now,
        deleted_at: null,
      });
      await repo.setGroups(id, groups);
      return id;
    });
  }

  /** Edits the whole task; a running task uses the new fields from its next evaluation. */
  private async change(
    user: AreaCaller,
    areaId: number,
    id: number,
    scope: TaskScope,
    groupIds: number[],
    columns: ReturnType<typeof rebootColumns> | ReturnType<typeof tempColumns>,
  ): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    const task = await this.find(areaId, id, scope);
    const now = this.deps.clock();
    if (!editAllowed(statusOf(task, now))) throw new ApiError(Code.CONFLICT, 'api.taskNotEditable');
    const groupType: GroupType = scope.kind === 'temp' ? 'temp_mode' : groupTypeOfKind[scope.kind];
    await this.inTransaction(async (repo) => {
      const groups = await this.checkGroups(repo, areaId, groupIds, groupType);
      const changed = await repo.updateIfState(id, task.state, {
        ...columns,
        updated_at: now,
        ...(task.state === 'active' && { next_eval_at: now }),
      });
      if (!changed) throw new ApiError(Code.CONFLICT, 'api.taskNotEditable');
      await repo.setGroups(id, groups);
    });
  }

  /**
   * Start, stop or delete after the contract's `transitionAllowed`; refusals name the reason.
   * `restore` (temperature tasks' stop and delete): the miners the task left in low mode are
   * switched back to high with it, through the engine (see `TaskEngine.endSwitchingBack`).
   */
  async transition(
    user: AreaCaller,
    areaId: number,
    id: number,
    scope: TaskScope,
    transition: TaskTransition,
    restore = false,
  ) {
    const access = await this.deps.areas.requireAccess(user, areaId);
    if (transition === 'delete') requireManage(access);
    const task = await this.find(areaId, id, scope);
    const now = this.deps.clock();
    if (!transitionAllowed(statusOf(task, now), transition))
      throw new ApiError(Code.CONFLICT, refusal[transition]);
    const next =
      transition === 'start'
        ? { state: 'active', next_eval_at: now }
        : transition === 'stop'
          ? { state: 'stopped' }
          : { state: 'deleted', deleted_at: now };
    if (restore && scope.type === 'temp' && transition !== 'start') {
      if (!(await this.deps.taskEngine.endSwitchingBack(task, { ...next, updated_at: now }, user.id, now)))
        throw new ApiError(Code.CONFLICT, refusal[transition]);
      return;
    }
    await this.inTransaction(async (repo) => {
      // Conditional on the state read: a concurrent transition makes this one a refusal.
      if (!(await repo.updateIfState(id, task.state, { ...next, updated_at: now })))
        throw new ApiError(Code.CONFLICT, refusal[transition]);
      // A restarted task observes afresh: time while stopped was not watched.
      if (transition === 'start') await repo.resetTimers(id);
    });
  }

  // ── Reboot tasks ──

  async addReboot(user: AreaCaller, body: RebootTaskAddBody): Promise<RebootTask> {
    const scope = { type: 'reboot', kind: body.kind } as const;
    const id = await this.create(user, body.area_id, scope, body.group_ids, rebootColumns(body));
    return this.rebootView(await this.find(body.area_id, id, scope));
  }

  async updateReboot(user: AreaCaller, body: RebootTaskAddBody & { id: number }): Promise<RebootTask> {
    const scope = { type: 'reboot', kind: body.kind } as const;
    await this.change(user, body.area_id, body.id, scope, body.group_ids, rebootColumns(body));
    return this.rebootView(await this.find(body.area_id, body.id, scope));
  }

  /** A reboot task of any kind (start/stop/delete name only the id). */
  async transitionReboot(user: AreaCaller, areaId: number, id: number, transition: TaskTransition) {
    await this.deps.areas.requireAccess(user, areaId);
    const task = await this.findAnyKind(areaId, id, 'reboot');
    const scope = { type: 'reboot', kind: task.kind as RebootKind } as const;
    await this.transition(user, areaId, id, scope, transition);
    return this.rebootView(await this.find(areaId, id, scope));
  }

  async listReboot(
    user: AreaCaller,
    q: { area_id: number; kind: RebootKind; status?: TaskStatus | undefined; page: number; limit: number },
  ) {
    await this.deps.areas.requireAccess(user, q.area_id);
    const rows = await this.page(q.area_id, { type: 'reboot', kind: q.kind }, q);
    return { ...rows, items: await this.rebootViews(rows.items) };
  }

  // ── Temperature tasks ──

  async addTemp(user: AreaCaller, body: TempTaskAddBody): Promise<TempTask> {
    const scope = { type: 'temp', kind: 'temp' } as const;
    const id = await this.create(user, body.area_id, scope, body.group_ids, tempColumns(body));
    return this.tempView(await this.find(body.area_id, id, scope));
  }

  async updateTemp(user: AreaCaller, body: TempTaskAddBody & { id: number }): Promise<TempTask> {
    const scope = { type: 'temp', kind: 'temp' } as const;
    await this.change(user, body.area_id, body.id, scope, body.group_ids, tempColumns(body));
    return this.tempView(await this.find(body.area_id, body.id, scope));
  }

  async transitionTemp(
    user: AreaCaller,
    areaId: number,
    id: number,
    transition: TaskTransition,
    restore = false,
  ) {
    const scope = { type: 'temp', kind: 'temp' } as const;
    await this.transition(user, areaId, id, scope, transition, restore);
    return this.tempView(await this.find(areaId, id, scope));
  }

  async listTemp(
    user: AreaCaller,
    q: { area_id: number; status?: TaskStatus | undefined; page: number; limit: number },
  ) {
    await this.deps.areas.requireAccess(user, q.area_id);
    const rows = await this.page(q.area_id, { type: 'temp', kind: 'temp' }, q);
    return { ...rows, items: await this.tempViews(rows.items) };
  }

  // ── Views ──

  private async page(
    areaId: number,
    scope: TaskScope,
    q: { status?: TaskStatus | undefined; page: number; limit: number },
  ) {
    const window = { limit: q.limit, offset: (q.page - 1) * q.limit };
    const rows = await this.repo.page(areaId, scope, q.status, this.deps.clock(), window);
    return { ...rows, page: q.page, limit: q.limit };
  }

  /** Groups, miner counts and action counts of tasks. */
  private async extras(ids: number[]) {
    const groups = new Map<number, { id: number; name: string }[]>();
    const miners = new Map<number, number>();
    const actions = new Map<number, number>();
    if (ids.length === 0) return { groups, miners, actions };
    const [g, m, a] = await this.repo.extras(ids);
    for (const r of g) groups.set(r.task_id, [...(groups.get(r.task_id) ?? []), { id: r.id, name: r.name }]);
    for (const r of m) miners.set(r.task_id, Number(r.n));
    for (const r of a) actions.set(r.task_id, Number(r.n));
    return { groups, miners, actions };
  }

  private common(t: TaskRow, x: Awaited<ReturnType<TaskService['extras']>>, now: number) {
    return {
      id: t.id,
      name: t.name,
      start_at: Number(t.start_at),
      end_at: Number(t.end_at),
      status: statusOf(t, now),
      groups: x.groups.get(t.id) ?? [],
      miner_count: x.miners.get(t.id) ?? 0,
      action_count: x.actions.get(t.id) ?? 0,
      last_evaluated_at: t.last_evaluated_at === null ? null : Number(t.last_evaluated_at),
      created_at: Number(t.created_at),
      updated_at: Number(t.updated_at),
    };
  }

  async rebootViews(rows: TaskRow[]): Promise<RebootTask[]> {
    const x = await this.extras(rows.map((r) => r.id));
    const now = this.deps.clock();
    return rows.map((t) => ({
      ...this.common(t, x, now),
      kind: t.kind as RebootKind,
      hashrate_threshold: t.hashrate_threshold ?? 0,
      duration_seconds: t.duration_seconds,
      reboot_interval_seconds: t.reboot_interval_seconds ?? 0,
      reboot_limit: t.reboot_limit ?? 0,
      simultaneous_count: t.simultaneous_count ?? 0,
      batch_interval_seconds: t.batch_interval_seconds ?? 0,
      power_off_seconds: t.power_off_seconds,
    }));
  }

  async rebootView(row: TaskRow): Promise<RebootTask> {
    return (await this.rebootViews([row]))[0]!;
  }

  async tempViews(rows: TaskRow[]): Promise<TempTask[]> {
    const ids = rows.map((r) => r.id);
    const x = await this.extras(ids);
    const low = new Map<number, number>();
    if (ids.length > 0)
      for (const r of await this.repo.switchedLowCounts(ids)) low.set(r.task_id, Number(r.n));
    const now = this.deps.clock();
    return rows.map((t) => ({
      ...this.common(t, x, now),
      source: t.source as TempSource,
      threshold: t.threshold ?? 0,
      duration_seconds: t.duration_seconds,
      hysteresis: t.hysteresis ?? 0,
      switched_low_count: low.get(t.id) ?? 0,
    }));
  }

  async tempView(row: TaskRow): Promise<TempTask> {
    return (await this.tempViews([row]))[0]!;
  }

  // ── History ──

  private async runViews(
    rows: (Pick<TaskRow, 'state' | 'start_at' | 'end_at' | 'name'> & {
      id: number;
      task_id: number;
      started_at: number;
      finished_at: number | null;
    })[],
  ): Promise<TaskRun[]> {
    const counts = new Map<number, { miners: number; ack: number; failed: number; pending: number }>();
    for (const c of await this.repo.runCounts(rows.map((r) => r.id)))
      counts.set(c.run_id, {
        miners: Number(c.miners),
        ack: Number(c.ack),
        failed: Number(c.failed),
        pending: Number(c.pending),
      });
    const now = this.deps.clock();
    return rows.map((r) => {
      const c = counts.get(r.id);
      return {
        id: r.id,
        task_id: r.task_id,
        task_name: r.name,
        task_status: statusOf(r, now),
        started_at: Number(r.started_at),
        finished_at: r.finished_at === null ? null : Number(r.finished_at),
        miner_count: c?.miners ?? 0,
        acknowledged_count: c?.ack ?? 0,
        failed_count: c?.failed ?? 0,
        pending_count: c?.pending ?? 0,
      };
    });
  }

  async history(
    user: AreaCaller,
    areaId: number,
    scope: TaskScope,
    q: RunFilter & { page: number; limit: number },
  ) {
    await this.deps.areas.requireAccess(user, areaId);
    if (q.task_id !== undefined) await this.find(areaId, q.task_id, scope);
    const [rows, total] = await Promise.all([
      this.repo.runs(areaId, scope, q, { limit: q.limit, offset: (q.page - 1) * q.limit }),
      this.repo.countRuns(areaId, scope, q),
    ]);
    return { items: await this.runViews(rows), total, page: q.page, limit: q.limit };
  }

  /** Every run of the filter, a page at a time (exports). */
  async *historyRows(
    user: AreaCaller,
    areaId: number,
    scope: TaskScope,
    q: RunFilter,
  ): AsyncGenerator<TaskRun[]> {
    await this.deps.areas.requireAccess(user, areaId);
    if (q.task_id !== undefined) await this.find(areaId, q.task_id, scope);
    const size = 2000;
    for (let offset = 0; ; offset += size) {
      const rows = await this.repo.runs(areaId, scope, q, { limit: size, offset });
      if (rows.length > 0) yield await this.runViews(rows);
      if (rows.length < size) return;
    }
  }

  /** Checks an item filter: a run or a task of this type (any reboot kind); foreign ids are "not found". */
  private async checkItemFilter(areaId: number, type: TaskType, q: ItemFilter): Promise<void> {
    let runTask: number | undefined;
    if (q.run_id !== undefined) {
      runTask = (await this.repo.runTask(areaId, q.run_id)) ?? notFound();
      await this.findAnyKind(areaId, runTask, type);
    }
    if (q.task_id !== undefined) {
      await this.findAnyKind(areaId, q.task_id, type);
      if (runTask !== undefined && runTask !== q.task_id) notFound();
    }
  }

  async items(
    user: AreaCaller,
    areaId: number,
    type: TaskType,
    q: ItemFilter & { page: number; limit: number },
  ) {
    await this.deps.areas.requireAccess(user, areaId);
    await this.checkItemFilter(areaId, type, q);
    const [rows, total] = await Promise.all([
      this.repo.items(areaId, q, { limit: q.limit, offset: (q.page - 1) * q.limit }),
      this.repo.countItems(areaId, q),
    ]);
    return { items: rows.map(itemView), total, page: q.page, limit: q.limit };
  }

  async *itemRows(
    user: AreaCaller,
    areaId: number,
    type: TaskType,
    q: ItemFilter,
  ): AsyncGenerator<TaskItem[]> {
    await this.deps.areas.requireAccess(user, areaId);
    await this.checkItemFilter(areaId, type, q);
    const size = 2000;
    for (let offset = 0; ; offset += size) {
      const rows = await this.repo.items(areaId, q, { limit: size, offset });
      if (rows.length > 0) yield rows.map(itemView);
      if (rows.length < size) return;
    }
  }
}

const itemView = (r: TaskItemRow): TaskItem => ({
  id: r.id,
  run_id: r.run_id,
  task_id: r.task_id,
  miner_id: r.miner_id,
  worker: r.worker,
  sn: r.sn,
  ip: r.ip,
  fbox_name: r.fbox_name,
  action: r.action as TaskItem['action'],
  reading: r.reading,
  command_id: r.command_id,
  status: r.status as TaskItem['status'],
  error: r.error,
  created_at: Number(r.created_at),
  finished_at: r.finished_at === null ? null : Number(r.finished_at),
});
