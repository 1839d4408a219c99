import { type AlertRule, defaultAlertRules } from '@fbox/contracts';
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

/** Kysely queries for the alert rules of mines. */
export class AlertRuleRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** Gives a mine the default rules (in the transaction that creates it). */
  async insertDefaults(areaId: number, now: number): Promise<void> {
    await this.db
      .insertInto('alert_rules')
      .values(
        defaultAlertRules.map((r) => ({
          area_id: areaId,
          metric: r.metric,
          level: r.level,
          threshold: r.threshold,
          threshold_max: r.threshold_max,
          sustain_seconds: r.sustain_seconds,
          hysteresis: r.hysteresis,
          enabled: r.enabled ? 1 : 0,
          created_at: now,
          updated_at: now,
        })),
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
