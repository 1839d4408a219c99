import { defaultAlertRules } from '@fbox/contracts';
import { type Kysely, type Migration, sql } from 'kysely';

/** The metrics this migration added (issue 13's remaining ones), as of 0019. */
const addedMetrics = [
  'meter_missing',
  'flow_low',
  'pump_fault',
  'tank_pump_fault',
  'fan_fault',
  'pool_hijacked',
] as const;

/**
 * Gives every existing mine the default rules of the metrics added after 0015. A mine that has a
 * rule of such a metric already (0015 inserts every default of its day, so a database migrated from
 * before 0015 gets them there) keeps it and gets no second one.
 */
export const alarmMetricsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const now = Date.now();
    for (const r of defaultAlertRules.filter((rule) =>
      (addedMetrics as readonly string[]).includes(rule.metric),
    )) {
      await sql`insert into alert_rules
          (area_id, metric, level, threshold, threshold_max, sustain_seconds, hysteresis, enabled, created_at, updated_at)
        select a.id, cast(${r.metric} as varchar(32)), cast(${r.level} as integer),
          cast(${r.threshold} as double precision), cast(${r.threshold_max} as double precision),
          cast(${r.sustain_seconds} as integer), cast(${r.hysteresis} as double precision),
          cast(${r.enabled ? 1 : 0} as integer), cast(${now} as bigint), cast(${now} as bigint)
        from areas a
        where not exists (
          select 1 from alert_rules ar where ar.area_id = a.id and ar.metric = cast(${r.metric} as varchar(32))
        )`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await sql`delete from alert_rules where metric in (${sql.join([...addedMetrics])})`.execute(db);
  },
};
