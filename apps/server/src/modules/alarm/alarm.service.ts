import {
  type AlertRule,
  type AlertRuleListQuery,
  type AlertRuleSaveBody,
  type AreaIdBody,
  alertMetrics,
  alertRuleLimits,
  Code,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ApiError } from '../../lib/api-error.js';
import type { SessionUser } from '../auth/auth.service.js';
import { notFound } from '../device-access.js';
import { AlertRuleRepository } from './alert-rule.repository.js';

/** Whether a change makes the rule's open alerts wrong: it is off, or watches something else. */
const invalidatesAlerts = (before: AlertRule, after: AlertRuleSaveBody): boolean =>
  !after.enabled ||
  before.metric !== after.metric ||
  before.level !== after.level ||
  before.threshold !== after.threshold ||
  before.threshold_max !== after.threshold_max;

/**
 * The alert rules of mines (the Tank and Machine Alert Rules screens, spec §7 `get_alert_setting`).
 * A mine starts with `defaultAlertRules`, written in the transaction that creates it
 * (`AreaService.onCreate`); mines older than the alarm center got them from the migration. A change that makes open alerts wrong (turned off, another metric, level or threshold)
 * closes them; the engine evaluates the new rule on the next messages.
 */
export class AlertRuleService {
  constructor(private readonly deps: Pick<FastifyInstance, 'db' | 'clock' | 'areas' | 'alarms'>) {}

  /** Gives a new mine the default rules, in the transaction creating it. */
  addDefaults(trx: Transaction<DB>, areaId: number): Promise<void> {
    return new AlertRuleRepository(trx).insertDefaults(areaId, this.deps.clock());
  }

  /** Every rule of a mine, oldest first. */
  list(areaId: number): Promise<AlertRule[]> {
    return new AlertRuleRepository(this.deps.db).listOf(areaId);
  }

  /** The rules of a mine the caller sees, all or one target's. */
  async listFor(user: SessionUser, q: AlertRuleListQuery): Promise<AlertRule[]> {
    await this.deps.areas.requireAccess(user, q.area_id);
    const rules = await this.list(q.area_id);
    return q.target ? rules.filter((r) => alertMetrics[r.metric].target === q.target) : rules;
  }

  /** Adds a rule, or changes one (`id`); a mine holds at most `alertRuleLimits.perMineMax`. */
  async save(user: SessionUser, body: AlertRuleSaveBody): Promise<AlertRule> {
    await this.deps.areas.requireAccess(user, body.area_id);
    const repo = new AlertRuleRepository(this.deps.db);
    const now = this.deps.clock();
    let id = body.id;
    if (id === undefined) {
      if ((await repo.countOf(body.area_id)) >= alertRuleLimits.perMineMax)
        throw new ApiError(Code.CONFLICT, 'api.alertRuleLimit', { max: alertRuleLimits.perMineMax });
      id = await repo.insert(body.area_id, body, now);
    } else {
      const before = (await repo.get(body.area_id, id)) ?? notFound();
      await repo.update(body.area_id, id, body, now);
      if (invalidatesAlerts(before, body)) await this.deps.alarms.closeRule(id, 'rule_changed');
    }
    return (await repo.get(body.area_id, id)) ?? notFound();
  }

  /** Deletes a rule: its open alerts close, its history stays. */
  async delete(user: SessionUser, body: AreaIdBody): Promise<null> {
    await this.deps.areas.requireAccess(user, body.area_id);
    const repo = new AlertRuleRepository(this.deps.db);
    (await repo.get(body.area_id, body.id)) ?? notFound();
    // Closed first, so the alerts record why; the states and silences go with the rule.
    await this.deps.alarms.closeRule(body.id, 'rule_deleted');
    if (!(await repo.delete(body.area_id, body.id))) notFound();
    return null;
  }
}
