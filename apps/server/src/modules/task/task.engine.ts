import { randomBytes } from 'node:crypto';
import type { CommandStatus, TaskItem } from '@fbox/contracts';

type TaskAction = TaskItem['action'];

import type { FastifyInstance } from 'fastify';
import type { Updateable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CommandSettled, IssueCommand } from '../../devices/command.service.js';
import { AreaRepository } from '../area/area.repository.js';
import { itemStatusOf, type SettledCommandStatus, statusOf, type TaskRow } from './task.service.js';
import { type ActionRecord, type MinerStateRow, TaskEngineRepository } from './task-engine.repository.js';

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
  state: MinerStateRow | null;
}

interface Action {
  miner: MinerView;
  action: TaskAction;
  reading: number | null;
  /** task_miner_state changes made with the action (in the same transaction). */
  state: Partial<MinerStateRow>;
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

  private get repo() {
    return new TaskEngineRepository(this.deps.db);
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
    const repo = this.repo;
    let count = 0;
    for (const { id, claimed_by } of await repo.due(now, 100)) {
      if (!(await repo.claim(id, this.owner, now + this.leaseMs, now))) continue;
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
      await repo.release(id, this.owner, next, now);
    }
    return count;
  }

  /** Applies a settled command to its item (the command service calls this on ack or timeout). */
  async commandSettled(settled: CommandSettled): Promise<void> {
    if (!(settled.status in { acknowledged: 1, failed: 1, timed_out: 1 })) return;
    const item = await this.repo.pendingItemOf(settled.id);
    if (!item) return;
    await this.settleItem(item.id, settled.status as SettledCommandStatus, settled.error, settled.at);
    await this.finishRuns([item.run_id], settled.at);
  }

  private async settleItem(id: number, status: SettledCommandStatus, error: string | null, at: number) {
    await this.repo.settleItem(id, itemStatusOf(status), (error ?? '').slice(0, 500), at);
  }

  /** A run is finished when none of its actions is pending and no PDU power-on is still due. */
  private async finishRuns(runIds: number[], now: number) {
    if (runIds.length > 0) await this.repo.finishRuns(runIds, now);
  }

  /** Items still pending whose command settled (an ack handled by another process, a crash). */
  private async reconcile(taskId: number, now: number, takeover: boolean) {
    const resend: string[] = [];
    const runs = new Set<number>();
    for (const item of await this.repo.openItems(taskId)) {
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
    for (const o of await this.repo.orphanItems(taskId)) {
      await this.settleItem(o.id, 'failed', 'the device was removed', now);
      runs.add(o.run_id);
    }
    await this.finishRuns([...runs], now);
    await this.deps.commands.publishStored(resend);
  }

  /** Evaluates one claimed task; returns when to look at it next (null: nothing left to do). */
  private async evaluate(taskId: number, now: number, takeover: boolean): Promise<number | null> {
    const task = await this.repo.task(taskId);
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
    const nextOn = await this.repo.nextPowerOn(taskId);
    // Unsettled commands are looked after (re-sent, reconciled) until they settle.
    const followUp = (await this.repo.hasPendingItem(taskId)) ? now + resendAfterMs : null;
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
    const rows = await this.repo.watchedMiners(task.id, task.area_id);
    await this.repo.addStates(
      task.id,
      rows.filter((r) => r.s_task_id === null).map((r) => r.miner_id),
    );
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

  /** The account's Delay Switch (ms between power-unit batch switches) of the mine's master. */
  private async delaySwitchMs(areaId: number): Promise<number> {
    const owner = await new AreaRepository(this.deps.db).ownerOf(areaId);
    return owner === undefined ? 0 : this.deps.fboxConfig.delaySwitchMs(owner);
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
    await this.repo.setTimers(task.id, 'since_at', start, clear, now);

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
    const due = await this.repo.powerOnDue(task.id, now);
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
    if (lost.length > 0) await this.repo.forgetPowerOn(task.id, lost);
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
    await this.repo.setTimers(task.id, 'since_at', hot, notHot, now);
    await this.repo.setTimers(task.id, 'cool_since', cooled, notCooled, now);

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
   * Ends a temperature task as a user asked (`end`: its stop or delete, conditional on the state
   * read) and, in the same transaction, switches back to high mode the miners it left in low mode:
   * one run of `mode_high` actions written and published as the engine's own, so their outcome shows
   * in the task's history. The engine follows them up (re-sends, reconciles) like any unsettled
   * item, whatever the task's status. False when the task's state changed meanwhile (nothing done).
   */
  async endSwitchingBack(
    task: TaskRow,
    end: Updateable<DB['tasks']>,
    userId: number,
    now: number,
  ): Promise<boolean> {
    const actions = (await this.repo.leftLow(task.id)).map((r) =>
      this.switchAction({ ...r, reading: null, state: r }, 'mode_high', now),
    );
    const records = await this.records(task, actions, now, userId);
    const followUp = records.length > 0 && { next_eval_at: now + resendAfterMs };
    const written = await this.repo.endWithRun(task, { ...end, ...followUp }, now, records);
    if (written === null) return false;
    await this.deps.commands.publishStored(written);
    return true;
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
    const written = await this.repo.recordActions(
      task,
      this.owner,
      { batch: options.batch, runId: options.runId, now },
      await this.records(task, actions, now, null),
    );
    if (written === null) throw new LostLease();
    await this.deps.commands.publishStored(written);
  }

  /**
   * The state change, item and command row of each action. Command rows are prepared before the
   * transaction (they read the FBOXes); only those of actions taken are written. `userId`: who asked
   * (null for the engine's own decisions).
   */
  private async records(
    task: TaskRow,
    actions: Action[],
    now: number,
    userId: number | null,
  ): Promise<ActionRecord[]> {
    if (actions.length === 0) return [];
    const ids = actions.map(() => randomBytes(16).toString('hex'));
    const rows = await this.deps.commands.rowsFor(
      actions.map((a, i) => ({
        id: ids[i]!,
        areaId: task.area_id,
        fboxId: a.miner.fbox_id,
        minerId: a.miner.miner_id,
        tankId: a.miner.tank_id,
        userId,
        batchId: `task-${task.id}-${now}`,
        ...commandOf(a.action, a.miner),
      })),
    );
    return actions.map((a, i) => {
      const s = a.miner.state!;
      const n = a.count ? s.action_count + 1 : s.action_count;
      return {
        minerId: a.miner.miner_id,
        countRead: s.action_count,
        state: { ...a.state, action_count: n },
        completesPowerOn: a.action === 'power_on',
        item: {
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
        },
        command: rows[i]!,
      };
    });
  }
}
