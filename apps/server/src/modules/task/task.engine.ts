import { randomBytes } from 'node:crypto';
import type { CommandStatus, TaskItem } from '@fbox/contracts';

type TaskAction = TaskItem['action'];

import type { FastifyInstance } from 'fastify';
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { TaskMinerStateTable } from '../../db/tasks-schema.js';
import type { CommandSettled, IssueCommand } from '../../devices/command.service.js';
import { itemStatusOf, type SettledCommandStatus, statusOf, type TaskRow } from './task.service.js';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'commands' | 'log' | 'config' | 'fboxConfig'>;

/** A running task is looked at again at least this often (spec: at least every 30 s). */
export const evalPeriodMs = 15_000;
/** An unacknowledged command of a task is published again (same id) after this long. */
const resendAfterMs = 10_000;
const noData = -999;

interface MinerView {
  miner_id: number;
  fbox_id: number;
  tank_id: number | null;
  sn: string;
  worker: string;
  ip: string;
  outlet: number | null;
  online: number;
  mode: string;
  hashrate_realtime: number;
  fbox_name: string | null;
  reading: number | null;
  state: Selectable<TaskMinerStateTable> | null;
}

interface Action {
  miner: MinerView;
  action: TaskAction;
  reading: number | null;
  /** task_miner_state changes made with the action (in the same transaction). */
  state: Partial<Selectable<TaskMinerStateTable>>;
  /** Count the action (action_count + 1), guarded by the count read. */
  count: boolean;
}

const commandOf = (
  action: TaskAction,
  miner: MinerView,
): Pick<IssueCommand, 'kind' | 'params' | 'target'> => {
  const sn = { sn: miner.sn };
  switch (action) {
    case 'restart':
      return { kind: 'miner.restart', params: {}, target: sn };
    case 'mode_low':
      return { kind: 'miner.mode', params: { mode: 'low' }, target: sn };
    case 'mode_high':
      return { kind: 'miner.mode', params: { mode: 'high' }, target: sn };
    case 'power_off':
      return { kind: 'pdu.outlet', params: { status: 'off' }, target: { outlet: miner.outlet! } };
    case 'power_on':
      return { kind: 'pdu.outlet', params: { status: 'on' }, target: { outlet: miner.outlet! } };
  }
};

class LostLease extends Error {}

/**
 * The task engine (DESIGN §8), in every server process. Each tick claims due tasks one by one with a
 * conditional update (a lease: `claimed_by`, `lease_until`), evaluates each against the latest device
 * state, and releases it with its next evaluation time. Timing state is in `task_miner_state`.
 *
 * An action is one transaction — the miner's state advances (guarded by the count it read), the
 * item is inserted (unique `action_key`) with its command row (id chosen up front) — and only
 * then is the command published. Unsettled commands of a task are published again with the same
 * id (the gateway executes an id once), so a crash at any point neither repeats nor loses an action.
 */
export class TaskEngine {
  readonly owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly leaseMs: number,
  ) {}

  private get db(): Kysely<DB> {
    return this.deps.db;
  }

  start(intervalMs = 1000): void {
    this.timer = setInterval(() => void this.tick().catch(() => {}), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => {});
  }

  /** Evaluates every due task this process can claim; returns how many. Ticks do not overlap. */
  async tick(): Promise<number> {
    if (this.running) {
      await this.running.catch(() => {});
      return 0;
    }
    this.running = this.evaluateDue().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async evaluateDue(): Promise<number> {
    const now = this.deps.clock();
    const due = await this.db
      .selectFrom('tasks')
      .select(['id', 'claimed_by'])
      .where('next_eval_at', '<=', now)
      .where('lease_until', '<=', now)
      .orderBy('next_eval_at')
      .limit(100)
      .execute();
    let count = 0;
    for (const { id, claimed_by } of due) {
      const claimed = await this.db
        .updateTable('tasks')
        .set({ claimed_by: this.owner, lease_until: now + this.leaseMs })
        .where('id', '=', id)
        .where('next_eval_at', '<=', now)
        .where('lease_until', '<=', now)
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) continue;
      count++;
      // A claim left by another process means it died holding the task: re-send everything open.
      const takeover = claimed_by !== null && claimed_by !== this.owner;
      let next: number | null = now + evalPeriodMs;
      try {
        next = await this.evaluate(id, now, takeover);
      } catch (error) {
        if (!(error instanceof LostLease))
          this.deps.log.error({ err: error, taskId: id }, 'task evaluation failed');
      }
      await this.db
        .updateTable('tasks')
        .set({ claimed_by: null, lease_until: 0, next_eval_at: next, last_evaluated_at: now })
        .where('id', '=', id)
        .where('claimed_by', '=', this.owner)
        .execute();
    }
    return count;
  }

  /** Applies a settled command to its item (the command service calls this on ack or timeout). */
  async commandSettled(settled: CommandSettled): Promise<void> {
    if (!(settled.status in { acknowledged: 1, failed: 1, timed_out: 1 })) return;
    const item = await this.db
      .selectFrom('task_items')
      .select(['id', 'run_id'])
      .where('command_id', '=', settled.id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!item) return;
    await this.settleItem(item.id, settled.status as SettledCommandStatus, settled.error, settled.at);
    await this.finishRuns([item.run_id], settled.at);
  }

  private async settleItem(id: number, status: SettledCommandStatus, error: string | null, at: number) {
    await this.db
      .updateTable('task_items')
      .set({ status: itemStatusOf(status), error: (error ?? '').slice(0, 500), finished_at: at })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }

  /** A run is finished when none of its actions is pending and no PDU power-on is still due. */
  private async finishRuns(runIds: number[], now: number) {
    if (runIds.length === 0) return;
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

  /** Items still pending whose command settled (an ack handled by another process, a crash). */
  private async reconcile(taskId: number, now: number, takeover: boolean) {
    const open = await this.db
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
    const resend: string[] = [];
    const runs = new Set<number>();
    for (const item of open) {
      const status = item.status as CommandStatus;
      if (status === 'acknowledged' || status === 'failed' || status === 'timed_out') {
        await this.settleItem(item.id, status, item.error, item.acked_at ?? now);
        runs.add(item.run_id);
      } else if (
        status === 'pending' ||
        takeover ||
        (item.sent_at !== null && item.sent_at <= now - resendAfterMs)
      ) {
        resend.push(item.command_id);
      }
    }
    // Items whose command row is gone (its FBOX was deleted) can never settle.
    const orphans = await this.db
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
    for (const o of orphans) {
      await this.settleItem(o.id, 'failed', 'the device was removed', now);
      runs.add(o.run_id);
    }
    await this.finishRuns([...runs], now);
    await this.deps.commands.publishStored(resend);
  }

  /** Evaluates one claimed task; returns when to look at it next (null: nothing left to do). */
  private async evaluate(taskId: number, now: number, takeover: boolean): Promise<number | null> {
    const task = await this.db.selectFrom('tasks').selectAll().where('id', '=', taskId).executeTakeFirst();
    if (!task) return null;
    await this.reconcile(taskId, now, takeover);

    // PDU outlets switched off are switched on again whatever happened to the task since.
    const powerOn = await this.powerOnDue(task, now);
    const status = statusOf(task, now);
    let next: number | null = null;
    if (status === 'running') {
      const miners = await this.readMiners(task);
      next =
        task.type === 'temp'
          ? await this.evaluateTemp(task, miners, now)
          : await this.evaluateReboot(task, miners, now, powerOn);
    }
    const pendingOn = await this.db
      .selectFrom('task_miner_state')
      .select((eb) => eb.fn.min<number>('on_due_at').as('due'))
      .where('task_id', '=', taskId)
      .where('on_due_at', 'is not', null)
      .executeTakeFirst();
    const nextOn = pendingOn?.due == null ? null : Number(pendingOn.due);
    const open = await this.db
      .selectFrom('task_items')
      .select('id')
      .where('task_id', '=', taskId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    // Unsettled commands are looked after (re-sent, reconciled) until they settle.
    const followUp = open ? now + resendAfterMs : null;
    const earliest = (...times: (number | null)[]) => {
      const valid = times.filter((t): t is number => t !== null);
      return valid.length === 0 ? null : Math.max(now + 1, Math.min(...valid));
    };
    if (status === 'queued') return earliest(task.start_at, nextOn, followUp);
    if (status !== 'running') return earliest(nextOn, followUp);
    return earliest(now + evalPeriodMs, task.end_at, next, nextOn, followUp);
  }

  /** The task's miners (members of its groups) with their state, reading and timing state. */
  private async readMiners(task: TaskRow): Promise<MinerView[]> {
    const members = this.db
      .selectFrom('miner_group_members')
      .innerJoin('task_groups', 'task_groups.group_id', 'miner_group_members.group_id')
      .where('task_groups.task_id', '=', task.id)
      .select('miner_group_members.miner_id')
      .distinct();
    const rows = await this.db
      .selectFrom('miner_state as m')
      .leftJoin('fboxes', 'fboxes.id', 'm.fbox_id')
      .leftJoin('fbox_state as fs', 'fs.fbox_id', 'm.fbox_id')
      .leftJoin('tank_state as ts', 'ts.tank_id', 'm.tank_id')
      .leftJoin('task_miner_state as s', (j) =>
        j.onRef('s.miner_id', '=', 'm.miner_id').on('s.task_id', '=', task.id),
      )
      .where('m.miner_id', 'in', members)
      .where('m.area_id', '=', task.area_id)
      .select([
        'm.miner_id',
        'm.fbox_id',
        'm.tank_id',
        'm.sn',
        'm.worker',
        'm.ip',
        'm.outlet',
        'm.online',
        'm.mode',
        'm.hashrate_realtime',
        'm.chip_max_temp',
        'fboxes.name as fbox_name',
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
    const missing = rows.filter((r) => r.s_task_id === null).map((r) => r.miner_id);
    for (let i = 0; i < missing.length; i += 500) {
      await this.db
        .insertInto('task_miner_state')
        .values(
          missing.slice(i, i + 500).map((miner_id) => ({ task_id: task.id, miner_id, action_count: 0 })),
        )
        .onConflict((oc) => oc.columns(['task_id', 'miner_id']).doNothing())
        .execute();
    }
    return rows.map((r) => {
      const raw =
        task.source === 'tank_oil_outlet'
          ? r.oil_out_temp
          : task.source === 'miner_chip_max'
            ? r.chip_max_temp
            : task.source === 'fbox_temp'
              ? r.fbox_temp
              : null;
      return {
        miner_id: r.miner_id,
        fbox_id: r.fbox_id,
        tank_id: r.tank_id,
        sn: r.sn,
        worker: r.worker,
        ip: r.ip,
        outlet: r.outlet,
        online: r.online,
        mode: r.mode,
        hashrate_realtime: r.hashrate_realtime,
        fbox_name: r.fbox_name,
        reading: raw === null || raw === undefined || raw === noData || r.online !== 1 ? null : raw,
        state: {
          task_id: task.id,
          miner_id: r.miner_id,
          since_at: r.since_at ?? null,
          cool_since: r.cool_since ?? null,
          action_count: r.action_count ?? 0,
          last_action_at: r.last_action_at ?? null,
          last_action: r.last_action ?? null,
          on_due_at: r.on_due_at ?? null,
          pending_run_id: r.pending_run_id ?? null,
        },
      };
    });
  }

  /** Sets or clears a timing column for miners whose condition started or ended at this evaluation. */
  private async setTimers(
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

  /** The account's Delay Switch (ms between power-unit batch switches) of the mine's master. */
  private async delaySwitchMs(areaId: number): Promise<number> {
    const area = await this.db
      .selectFrom('areas')
      .select('owner_id')
      .where('id', '=', areaId)
      .executeTakeFirst();
    return area ? this.deps.fboxConfig.delaySwitchMs(area.owner_id) : 0;
  }

  private async evaluateReboot(
    task: TaskRow,
    miners: MinerView[],
    now: number,
    switchedNow: boolean,
  ): Promise<number | null> {
    const pdu = task.kind === 'pdu';
    const threshold = task.hashrate_threshold ?? 0;
    const durationMs = task.duration_seconds * 1000;
    const intervalMs = (task.reboot_interval_seconds ?? 0) * 1000;
    const limit = task.reboot_limit ?? 0;
    // Offline miners qualify for PDU tasks (the power cycle is what can bring them back).
    const below = (m: MinerView) =>
      m.online === 1
        ? m.hashrate_realtime !== noData && m.hashrate_realtime >= 0 && m.hashrate_realtime < threshold
        : pdu;
    const start: number[] = [];
    const clear: number[] = [];
    for (const m of miners) {
      const s = m.state!;
      if (below(m)) {
        if (s.since_at === null) {
          s.since_at = now;
          start.push(m.miner_id);
        }
      } else if (s.since_at !== null) {
        s.since_at = null;
        clear.push(m.miner_id);
      }
    }
    await this.setTimers(task.id, 'since_at', start, clear, now);

    const eligibleAt = (m: MinerView) => {
      const s = m.state!;
      if (
        s.since_at === null ||
        s.action_count >= limit ||
        (pdu && (m.outlet === null || s.on_due_at !== null))
      )
        return null;
      return Math.max(s.since_at + durationMs, s.last_action_at === null ? 0 : s.last_action_at + intervalMs);
    };
    const waiting = miners
      .map((m) => ({ m, at: eligibleAt(m) }))
      .filter((x): x is { m: MinerView; at: number } => x.at !== null);
    const ready = waiting
      .filter((x) => x.at <= now)
      .sort((a, b) => a.m.state!.since_at! - b.m.state!.since_at! || a.m.miner_id - b.m.miner_id);
    const later = waiting.filter((x) => x.at > now).map((x) => x.at);
    const soonest = later.length > 0 ? Math.min(...later) : null;
    if (ready.length === 0) return soonest;

    // Batches: one at a time for PDU tasks (the last must be powered on), spaced by the interval
    // (plus the account's Delay Switch for PDU switches).
    if (pdu && (switchedNow || miners.some((m) => m.state!.on_due_at !== null))) return soonest;
    const gap =
      (task.batch_interval_seconds ?? 0) * 1000 + (pdu ? await this.delaySwitchMs(task.area_id) : 0);
    if (task.last_batch_at !== null && now < task.last_batch_at + gap) return task.last_batch_at + gap;

    const batch = ready.slice(0, task.simultaneous_count ?? 1).map(
      ({ m }): Action => ({
        miner: m,
        action: pdu ? 'power_off' : 'restart',
        reading: m.online === 1 && m.hashrate_realtime !== noData ? m.hashrate_realtime : null,
        state: {
          last_action_at: now,
          last_action: pdu ? 'power_off' : 'restart',
          ...(pdu && { on_due_at: now + (task.power_off_seconds ?? 1) * 1000 }),
        },
        count: true,
      }),
    );
    await this.act(task, batch, now, { batch: true });
    return ready.length > batch.length ? now + gap : soonest;
  }

  /** Powers on the outlets whose off time has passed: one batch switch. True when it switched. */
  private async powerOnDue(task: TaskRow, now: number): Promise<boolean> {
    if (task.kind !== 'pdu') return false;
    const due = await this.db
      .selectFrom('task_miner_state as s')
      .innerJoin('miner_state as m', 'm.miner_id', 's.miner_id')
      .leftJoin('fboxes', 'fboxes.id', 'm.fbox_id')
      .selectAll('s')
      .select([
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
      ])
      .where('s.task_id', '=', task.id)
      .where('s.on_due_at', '<=', now)
      .orderBy('s.on_due_at')
      .orderBy('s.miner_id')
      .execute();
    if (due.length === 0) return false;
    const actions = due
      .filter((r) => r.outlet !== null)
      .map(
        (r): Action => ({
          miner: { ...r, reading: null, state: r },
          action: 'power_on',
          reading: null,
          state: { on_due_at: null, pending_run_id: null, last_action: 'power_on' },
          count: false,
        }),
      );
    await this.act(task, actions, now, { batch: true, runId: due[0]!.pending_run_id });
    // A miner whose outlet went missing cannot be switched on by us: forget the pending step.
    const lost = due.filter((r) => r.outlet === null).map((r) => r.miner_id);
    if (lost.length > 0) {
      await this.db
        .updateTable('task_miner_state')
        .set({ on_due_at: null, pending_run_id: null })
        .where('task_id', '=', task.id)
        .where('miner_id', 'in', lost)
        .execute();
    }
    return true;
  }

  private async evaluateTemp(task: TaskRow, miners: MinerView[], now: number): Promise<number | null> {
    const threshold = task.threshold ?? 0;
    const cool = threshold - (task.hysteresis ?? 0);
    const durationMs = task.duration_seconds * 1000;
    // A switch the task sent is not repeated while the miner's report may still lag behind it.
    const graceMs = Math.max(durationMs, 120_000);
    const hot: number[] = [];
    const notHot: number[] = [];
    const cooled: number[] = [];
    const notCooled: number[] = [];
    for (const m of miners) {
      const s = m.state!;
      const isHot = m.reading !== null && m.reading > threshold;
      const isCool = m.reading !== null && m.reading <= cool;
      if (isHot && s.since_at === null) {
        s.since_at = now;
        hot.push(m.miner_id);
      } else if (!isHot && s.since_at !== null) {
        s.since_at = null;
        notHot.push(m.miner_id);
      }
      if (isCool && s.cool_since === null) {
        s.cool_since = now;
        cooled.push(m.miner_id);
      } else if (!isCool && s.cool_since !== null) {
        s.cool_since = null;
        notCooled.push(m.miner_id);
      }
    }
    await this.setTimers(task.id, 'since_at', hot, notHot, now);
    await this.setTimers(task.id, 'cool_since', cooled, notCooled, now);

    const actions: Action[] = [];
    const later: number[] = [];
    for (const m of miners) {
      const s = m.state!;
      const recent = (action: string) =>
        s.last_action === action && s.last_action_at !== null && s.last_action_at > now - graceMs;
      if (s.since_at !== null && m.mode !== 'low' && !recent('mode_low')) {
        if (s.since_at + durationMs <= now) actions.push(this.switchAction(m, 'mode_low', now));
        else later.push(s.since_at + durationMs);
      }
      // Back to high: only miners this task switched to low.
      if (
        s.cool_since !== null &&
        s.last_action === 'mode_low' &&
        m.mode !== 'high' &&
        !recent('mode_high')
      ) {
        if (s.cool_since + durationMs <= now) actions.push(this.switchAction(m, 'mode_high', now));
        else later.push(s.cool_since + durationMs);
      }
    }
    if (actions.length > 0) await this.act(task, actions, now, { batch: false });
    return later.length > 0 ? Math.min(...later) : null;
  }

  private switchAction(m: MinerView, action: 'mode_low' | 'mode_high', now: number): Action {
    return {
      miner: m,
      action,
      reading: m.reading,
      state: { last_action_at: now, last_action: action },
      count: true,
    };
  }

  /**
   * One run of actions, atomically: the task must still be ours (lease) — and active for a new
   * batch —, each miner's state advances only from the state read, each item's `action_key` is
   * unique and its command row is written with it. Commands are published after the commit.
   */
  private async act(
    task: TaskRow,
    actions: Action[],
    now: number,
    options: { batch: boolean; runId?: number | null },
  ): Promise<void> {
    if (actions.length === 0) return;
    // Command rows are prepared first (they read the FBOXes); only those of actions taken are written.
    const ids = actions.map(() => randomBytes(16).toString('hex'));
    const rows = await this.deps.commands.rowsFor(
      actions.map((a, i) => ({
        id: ids[i]!,
        areaId: task.area_id,
        fboxId: a.miner.fbox_id,
        minerId: a.miner.miner_id,
        tankId: a.miner.tank_id,
        userId: null,
        batchId: `task-${task.id}-${now}`,
        ...commandOf(a.action, a.miner),
      })),
    );
    const commandIds: string[] = [];
    await this.db.transaction().execute(async (trx) => {
      const mine = await trx
        .updateTable('tasks')
        .set(options.batch ? { last_batch_at: now } : { updated_at: task.updated_at })
        .where('id', '=', task.id)
        .where('claimed_by', '=', this.owner)
        .$if(options.runId === undefined, (q) => q.where('state', '=', 'active'))
        .executeTakeFirst();
      if (Number(mine.numUpdatedRows) === 0) throw new LostLease();
      let runId = options.runId ?? null;
      if (runId === null) {
        runId = (
          await trx
            .insertInto('task_runs')
            .values({ task_id: task.id, area_id: task.area_id, started_at: now, finished_at: null })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      } else {
        await trx.updateTable('task_runs').set({ finished_at: null }).where('id', '=', runId).execute();
      }
      for (const [i, a] of actions.entries()) {
        const s = a.miner.state!;
        const n = a.count ? s.action_count + 1 : s.action_count;
        const advanced = await trx
          .updateTable('task_miner_state')
          .set({
            ...a.state,
            action_count: n,
            ...(a.action === 'power_off' && { pending_run_id: runId }),
          })
          .where('task_id', '=', task.id)
          .where('miner_id', '=', a.miner.miner_id)
          .where('action_count', '=', s.action_count)
          .$if(a.action === 'power_on', (q) => q.where('on_due_at', 'is not', null))
          .executeTakeFirst();
        if (Number(advanced.numUpdatedRows) === 0) continue;
        await trx
          .insertInto('task_items')
          .values({
            run_id: runId,
            task_id: task.id,
            area_id: task.area_id,
            miner_id: a.miner.miner_id,
            worker: a.miner.worker,
            sn: a.miner.sn,
            ip: a.miner.ip,
            fbox_name: a.miner.fbox_name ?? '',
            action: a.action,
            reading: a.reading,
            action_key: `${task.id}:${a.miner.miner_id}:${a.action}:${n}`,
            command_id: ids[i]!,
            status: 'pending',
            created_at: now,
            finished_at: null,
          })
          .execute();
        await trx.insertInto('commands').values(rows[i]!).execute();
        commandIds.push(ids[i]!);
      }
    });
    await this.deps.commands.publishStored(commandIds);
  }
}
