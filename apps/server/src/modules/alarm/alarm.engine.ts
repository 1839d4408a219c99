import { type AlertRule, type AlertTarget, alertMetrics } from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { RemovedDevices } from '../../devices/device.service.js';
import type { AppliedTelemetry } from '../../ingest/ingest.service.js';
import type { StatusChange } from '../../ingest/status.service.js';
import type { Clock } from '../../lib/clock.js';
import type { LiveEvents } from '../../realtime/live-events.js';
import type { AlertsTable } from './alarm.schema.js';
import {
  fboxReading,
  isWorse,
  minerReading,
  type Observation,
  observe,
  tankReading,
} from './alarm-conditions.js';
import { AlertRepository, type AlertStateRow, type RuleDevice } from './alert.repository.js';
import { AlertOfflineRepository } from './alert-offline.repository.js';
import { configuredPoolsOf, minerKey } from './alert-pool.repository.js';
import { AlertRuleRepository } from './alert-rule.repository.js';

declare module '../../realtime/live-events.js' {
  interface LiveEventMap {
    /** An alert opened or closed: ids and level only, the web refetches its lists. */
    alert: { alertId: number; ruleId: number; level: number; open: boolean };
  }
}

type Box = { id: number; area_id: number };

/**
 * An alert opened (`fired`) or closed (`recovered`), handed to transition listeners inside the
 * transaction that made it: what they write commits or rolls back with the transition itself.
 */
export interface AlertTransition {
  /**
   * `fired`: it opened; `recovered`: its condition cleared; `closed`: a person closed it by changing
   * or deleting its rule or removing its device (`alert.end_reason` says which).
   */
  kind: 'fired' | 'recovered' | 'closed';
  /** The alert as stored after the transition (`ended_at` set unless fired). */
  alert: Selectable<AlertsTable>;
  at: number;
  /** The rule is silenced on the device: the alert is recorded, no notification goes out. */
  silenced: boolean;
}

export type TransitionListener = (trx: Transaction<DB>, transition: AlertTransition) => Promise<void>;

/** A rule's verdict on one device of a telemetry message, named as the message names it. */
interface Check {
  rule: AlertRule;
  kind: AlertTarget;
  fbox: Box;
  /** The box's id, a tank's position or a miner's SN. */
  ref: number | string;
  obs: Observation;
}

/** Work handed over by ingest and offline detection, in arrival order. */
type Work = { telemetry: AppliedTelemetry } | { status: StatusChange };

const stateKey = (ruleId: number, kind: string, deviceId: number) => `${ruleId}:${kind}:${deviceId}`;

/**
 * Evaluates the alert rules of each mine (issue 13). Telemetry and status changes arrive from
 * in-process hooks and are evaluated one round at a time, off the ingest path: a box's newest
 * message replaces one still waiting, so a slow database delays alerts instead of piling up work.
 *
 * Per rule and device, all state is in `alert_states`: the condition held since `pending_since`;
 * after `sustain_seconds` an alert opens (one per rule and device, the database's unique index
 * decides between processes); while open its peak is tracked; it closes only once the reading is
 * back beyond the hysteresis margin. A restart reads the same rows, so it neither re-fires nor
 * loses an alert. Offline conditions are reported once by offline detection, so the ones whose
 * sustain time passes without a new message are fired by a job (`openDueOffline`).
 */
export class AlarmEngine {
  private readonly waiting = new Map<string, Work>();
  private running: Promise<void> | null = null;
  private stopped = false;
  private readonly rules: AlertRuleRepository;
  private readonly alerts: AlertRepository;
  private readonly offline: AlertOfflineRepository;
  private readonly transitionListeners: TransitionListener[] = [];

  constructor(
    private readonly deps: { db: Kysely<DB>; clock: Clock; live: LiveEvents; log: FastifyBaseLogger },
  ) {
    this.rules = new AlertRuleRepository(deps.db);
    this.alerts = new AlertRepository(deps.db);
    this.offline = new AlertOfflineRepository(deps.db);
  }

  /**
   * Adds work to every alert transition, run in its transaction (the notification outbox, the
   * inbox). A listener that throws rolls the transition back; it is evaluated again next time.
   */
  onTransition(listener: TransitionListener): void {
    this.transitionListeners.push(listener);
  }

  private within(kind: AlertTransition['kind'], at: number) {
    return async (trx: Transaction<DB>, alert: Selectable<AlertsTable>) => {
      if (this.transitionListeners.length === 0) return;
      const silenced = await new AlertRepository(trx).isSilenced(alert, at);
      for (const listener of this.transitionListeners) await listener(trx, { kind, alert, at, silenced });
    };
  }

  /**
   * Closes the open alerts of a rule (changed, turned off or deleted) and forgets its states. Run
   * after the rule change committed; it waits for the evaluation under way, which may still have
   * read the rule as it was, and closes again what that opened.
   */
  async closeRule(ruleId: number, reason: 'rule_changed' | 'rule_deleted'): Promise<number> {
    return this.closeWhere({ ruleId }, reason);
  }

  /** Closes the open alerts of devices removed from their mine (a box: its tanks' and miners' too). */
  async closeRemoved(removed: RemovedDevices): Promise<number> {
    return this.closeWhere(
      'fboxId' in removed ? removed : { areaId: removed.areaId, kind: removed.kind, deviceIds: removed.ids },
      'device_removed',
    );
  }

  private async closeWhere(
    which: Parameters<AlertRepository['closeWhere']>[0],
    reason: 'rule_changed' | 'rule_deleted' | 'device_removed',
  ): Promise<number> {
    let count = 0;
    for (const pass of [1, 2]) {
      if (pass === 2) await this.settled();
      const now = this.deps.clock();
      const closed = await this.alerts.closeWhere(which, reason, now, this.within('closed', now));
      for (const alert of closed) this.publish(alert.rule_id, alert.level, alert.area_id, alert.id, false);
      count += closed.length;
    }
    return count;
  }

  /** Ingest's `onApplied` listener: the messages that became their box's state are evaluated. */
  onTelemetry(applied: AppliedTelemetry[]): void {
    for (const a of applied) if (a.latest) this.enqueue(`t${a.fbox.id}`, { telemetry: a });
  }

  /** Offline detection's listener. */
  onStatus(change: StatusChange): void {
    this.enqueue(`s${change.fbox.id}`, { status: change });
  }

  /** Resolves once everything handed over so far is evaluated (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Takes no more work and waits for the round under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.waiting.clear();
    await this.settled();
  }

  /**
   * The offline job: marks offline devices no listener marked (see `AlertOfflineRepository.pendOffline`),
   * then opens the alerts of offline conditions held for their sustain time; returns how many.
   */
  async openDueOffline(): Promise<number> {
    const now = this.deps.clock();
    await this.offline.pendOffline(now);
    let opened = 0;
    for (const due of await this.offline.dueOffline(now)) {
      const key: RuleDevice = {
        ruleId: due.rule_id,
        kind: due.device_kind,
        deviceId: due.device_id,
        areaId: due.area_id,
        fboxId: due.fbox_id,
      };
      const rule = { id: due.rule_id, metric: due.metric, level: due.level as AlertRule['level'] };
      if (await this.open(rule, key, { verdict: 'fire', value: null, detail: '' }, now)) opened++;
    }
    return opened;
  }

  private enqueue(key: string, work: Work): void {
    if (this.stopped) return;
    // Moved to the end: a box's newer telemetry or status is evaluated after what came before it.
    this.waiting.delete(key);
    this.waiting.set(key, work);
    this.running ??= this.work();
  }

  private async work(): Promise<void> {
    try {
      while (this.waiting.size > 0) {
        const round = [...this.waiting.values()];
        this.waiting.clear();
        let telemetry: AppliedTelemetry[] = [];
        for (const work of [...round, null]) {
          if (work && 'telemetry' in work) {
            telemetry.push(work.telemetry);
            continue;
          }
          if (telemetry.length > 0) await this.guard(this.evaluateTelemetry(telemetry));
          telemetry = [];
          if (work) await this.guard(this.evaluateStatus(work.status));
        }
      }
    } finally {
      this.running = null;
    }
  }

  /** An evaluation that fails is logged; telemetry was acknowledged long before. */
  private async guard(evaluation: Promise<void>): Promise<void> {
    try {
      await evaluation;
    } catch (error) {
      this.deps.log.error({ err: error }, 'alert evaluation failed');
    }
  }

  private async rulesByArea(areaIds: number[]): Promise<Map<number, AlertRule[]>> {
    const byArea = new Map<number, AlertRule[]>();
    for (const rule of await this.rules.enabledOf([...new Set(areaIds)])) {
      const list = byArea.get(rule.area_id) ?? [];
      list.push(rule);
      byArea.set(rule.area_id, list);
    }
    return byArea;
  }

  private async evaluateTelemetry(applied: AppliedTelemetry[]): Promise<void> {
    const rulesByArea = await this.rulesByArea(applied.map((a) => a.fbox.area_id));
    const checks: Check[] = [];
    const add = (
      rule: AlertRule,
      kind: AlertTarget,
      fbox: Box,
      ref: number | string,
      obs: Observation | null,
    ) => {
      if (obs) checks.push({ rule, kind, fbox, ref, obs });
    };
    // Configured pools only for boxes of mines watching for pool hijacks.
    const pools = await configuredPoolsOf(
      this.deps.db,
      applied
        .filter(({ fbox }) => rulesByArea.get(fbox.area_id)?.some((r) => r.metric === 'pool_hijacked'))
        .map(({ fbox }) => fbox.id),
    );
    for (const { fbox, msg } of applied) {
      for (const rule of rulesByArea.get(fbox.area_id) ?? []) {
        const { target } = alertMetrics[rule.metric];
        if (target === 'fbox')
          add(rule, 'fbox', fbox, fbox.id, observe(rule, fboxReading(rule.metric, msg.box)));
        else if (target === 'tank')
          for (const t of msg.tanks)
            add(rule, 'tank', fbox, t.no, observe(rule, tankReading(rule.metric, t)));
        else
          for (const m of msg.miners)
            add(
              rule,
              'miner',
              fbox,
              m.sn,
              observe(rule, minerReading(rule.metric, m, pools.get(minerKey(fbox.id, m.sn)))),
            );
      }
    }
    if (checks.length === 0) return;
    const states = await this.alerts.statesOfBoxes([...new Set(checks.map((c) => c.fbox.id))]);
    const stateOf = new Map(states.map((s) => [stateKey(s.rule_id, s.device_kind, s.device_id), s]));
    const ids = await this.deviceIds(checks, states);
    const now = this.deps.clock();
    for (const check of checks) {
      const deviceId =
        check.kind === 'fbox' ? check.fbox.id : ids.get(`${check.kind}:${check.fbox.id}:${check.ref}`);
      if (deviceId === undefined) continue;
      const state = stateOf.get(stateKey(check.rule.id, check.kind, deviceId));
      if (!state && check.obs.verdict !== 'fire') continue;
      const key = {
        ruleId: check.rule.id,
        kind: check.kind,
        deviceId,
        areaId: check.fbox.area_id,
        fboxId: check.fbox.id,
      };
      await this.step(check.rule, key, check.obs, state, now);
    }
  }

  /**
   * Ids of the tanks (by position) and miners (by SN) the checks name, read only for boxes where a
   * rule fires or a state exists: on a healthy mine, nothing.
   */
  private async deviceIds(checks: Check[], states: AlertStateRow[]): Promise<Map<string, number>> {
    const boxes = { tank: new Set<number>(), miner: new Set<number>() };
    for (const c of checks) if (c.kind !== 'fbox' && c.obs.verdict === 'fire') boxes[c.kind].add(c.fbox.id);
    for (const s of states) if (s.device_kind !== 'fbox') boxes[s.device_kind].add(s.fbox_id);
    const ids = new Map<string, number>();
    if (boxes.tank.size > 0)
      for (const t of await this.alerts.tanksOf([...boxes.tank])) ids.set(`tank:${t.fbox_id}:${t.no}`, t.id);
    if (boxes.miner.size > 0)
      for (const m of await this.alerts.minersOf([...boxes.miner]))
        ids.set(`miner:${m.fbox_id}:${m.sn}`, m.id);
    return ids;
  }

  /** A box went offline (it and its miners: pending) or came back (its offline alert recovers). */
  private async evaluateStatus(change: StatusChange): Promise<void> {
    const { fbox, online } = change;
    const rules = (await this.rulesByArea([fbox.area_id])).get(fbox.area_id) ?? [];
    const boxRules = rules.filter((r) => r.metric === 'fbox_offline');
    const minerRules = online ? [] : rules.filter((r) => r.metric === 'miner_offline');
    if (boxRules.length === 0 && minerRules.length === 0) return;
    const states = await this.alerts.statesOfBoxes([fbox.id]);
    const stateOf = new Map(states.map((s) => [stateKey(s.rule_id, s.device_kind, s.device_id), s]));
    const obs: Observation = { verdict: online ? 'clear' : 'fire', value: null, detail: '' };
    const now = this.deps.clock();
    const devices: { rule: AlertRule; kind: AlertTarget; id: number }[] = boxRules.map((rule) => ({
      rule,
      kind: 'fbox',
      id: fbox.id,
    }));
    if (minerRules.length > 0) {
      for (const miner of await this.alerts.minersOf([fbox.id]))
        for (const rule of minerRules) devices.push({ rule, kind: 'miner', id: miner.id });
    }
    for (const { rule, kind, id } of devices) {
      const state = stateOf.get(stateKey(rule.id, kind, id));
      if (!state && obs.verdict !== 'fire') continue;
      const key = { ruleId: rule.id, kind, deviceId: id, areaId: fbox.area_id, fboxId: fbox.id };
      await this.step(rule, key, obs, state, now);
    }
  }

  /** One rule on one device moves on by one verdict. */
  private async step(
    rule: AlertRule,
    key: RuleDevice,
    obs: Observation,
    state: AlertStateRow | undefined,
    now: number,
  ): Promise<void> {
    if (state?.alert_id != null) {
      if (obs.verdict === 'clear') {
        if (await this.alerts.close(key, state.alert_id, now, this.within('recovered', now)))
          this.publish(rule.id, rule.level, key.areaId, state.alert_id, false);
      } else if (
        obs.value !== null &&
        state.peak_value !== null &&
        isWorse(rule, obs.value, state.peak_value)
      ) {
        await this.alerts.raisePeak(state.alert_id, obs.value, state.peak_value);
      }
      return;
    }
    if (obs.verdict !== 'fire') {
      // It must hold without a break for the sustain time: a reading that is not firing starts over.
      if (state) await this.alerts.clearPending(key);
      return;
    }
    const since = state?.pending_since ?? now;
    if (!state) await this.alerts.markPending(key, now);
    if (now - since >= rule.sustain_seconds * 1000) await this.open(rule, key, obs, now);
  }

  private async open(
    rule: Pick<AlertRule, 'id' | 'metric' | 'level'>,
    key: RuleDevice,
    obs: Observation,
    now: number,
  ): Promise<boolean> {
    const alertId = await this.alerts.open(
      key,
      {
        area_id: key.areaId,
        rule_id: rule.id,
        metric: rule.metric,
        level: rule.level,
        device_kind: key.kind,
        device_id: key.deviceId,
        fbox_id: key.fboxId,
        device_name: await this.alerts.deviceName(key.kind, key.deviceId),
        value: obs.value,
        peak_value: obs.value,
        detail: obs.detail,
        started_at: now,
      },
      this.within('fired', now),
    );
    if (alertId === null) return false;
    this.publish(rule.id, rule.level, key.areaId, alertId, true);
    return true;
  }

  private publish(ruleId: number, level: number, areaId: number, alertId: number, open: boolean): void {
    this.deps.live.publish({ type: 'alert', areaId, alertId, ruleId, level, open });
  }
}
