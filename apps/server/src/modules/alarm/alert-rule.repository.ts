import { type AlertRule, type AlertRuleFields, defaultAlertRules } from '@fbox/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AlertRulesTable } from './alarm.schema.js';

const ruleColumns = [
  'id',
  'area_id',
  'metric',
  'level',
  'threshold',
  'threshold_max',
  'sustain_seconds',
  'hysteresis',
  'enabled',
] as const;

type RuleRow = Pick<Selectable<AlertRulesTable>, (typeof ruleColumns)[number]>;

const toRule = (row: RuleRow): AlertRule => ({
  ...row,
  level: row.level as AlertRule['level'],
  enabled: row.enabled === 1,
});

/** A rule's stored columns from what a user set. */
const columns = (f: AlertRuleFields) => ({
  metric: f.metric,
  level: f.level,
  threshold: f.threshold,
  threshold_max: f.threshold_max,
  sustain_seconds: f.sustain_seconds,
  hysteresis: f.hysteresis,
  enabled: f.enabled ? 1 : 0,
});

/** Kysely queries for the alert rules of mines. */
export class AlertRuleRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Gives a mine the default rules (in the transaction that creates it). */
  async insertDefaults(areaId: number, now: number): Promise<void> {
    await this.db
      .insertInto('alert_rules')
      .values(
        defaultAlertRules.map((r) => ({ area_id: areaId, ...columns(r), created_at: now, updated_at: now })),
      )
      .execute();
  }

  /** Every rule of a mine, oldest first. */
  async listOf(areaId: number): Promise<AlertRule[]> {
    const rows = await this.db
      .selectFrom('alert_rules')
      .select(ruleColumns)
      .where('area_id', '=', areaId)
      .orderBy('id')
      .execute();
    return rows.map(toRule);
  }

  /** One rule of a mine. */
  async get(areaId: number, id: number): Promise<AlertRule | undefined> {
    const row = await this.db
      .selectFrom('alert_rules')
      .select(ruleColumns)
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRule(row);
  }

  /** How many rules a mine holds. */
  async countOf(areaId: number): Promise<number> {
    const row = await this.db
      .selectFrom('alert_rules')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('area_id', '=', areaId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Adds a rule to a mine; returns its id. */
  async insert(areaId: number, fields: AlertRuleFields, now: number): Promise<number> {
    const row = await this.db
      .insertInto('alert_rules')
      .values({ area_id: areaId, ...columns(fields), created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Changes a rule of a mine. */
  async update(areaId: number, id: number, fields: AlertRuleFields, now: number): Promise<void> {
    await this.db
      .updateTable('alert_rules')
      .set({ ...columns(fields), updated_at: now })
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .execute();
  }

  /** Deletes a rule of a mine (its states and silences go with it); false when there was none. */
  async delete(areaId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('alert_rules')
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The enabled rules of the given mines. */
  async enabledOf(areaIds: readonly number[]): Promise<AlertRule[]> {
    if (areaIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('alert_rules')
      .select(ruleColumns)
      .where('area_id', 'in', areaIds)
      .where('enabled', '=', 1)
      .execute();
    return rows.map(toRule);
  }
}
