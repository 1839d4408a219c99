import type { AlertEndReason, AlertMetric, AlertTarget } from '@fbox/contracts';
import type { Generated } from 'kysely';

/** Row types of the alarm tables (migrations 0015 and 0018). Times are UTC epoch ms. */

export interface AlertRulesTable {
  id: Generated<number>;
  area_id: number;
  metric: AlertMetric;
  /** 1 critical, 2 major, 3 minor. */
  level: number;
  /** A value metric's threshold (a range's minimum); null for a state metric. */
  threshold: number | null;
  /** A range's maximum (voltage); null otherwise. */
  threshold_max: number | null;
  sustain_seconds: number;
  hysteresis: number;
  /** 1 on, 0 off. */
  enabled: number;
  created_at: number;
  updated_at: number;
}

/**
 * What a rule decided about one device: pending (the condition holds since `pending_since`) and/or
 * open (`alert_id`). No row: the condition does not hold and nothing is open.
 */
export interface AlertStatesTable {
  rule_id: number;
  device_kind: AlertTarget;
  device_id: number;
  area_id: number;
  /** The FBOX the device belongs to (itself for a box): ingest looks states up by box. */
  fbox_id: number;
  pending_since: number | null;
  alert_id: number | null;
}

/** An alert: open while `ended_at` is null. Rule and device are copied, so history outlives them. */
export interface AlertsTable {
  id: Generated<number>;
  area_id: number;
  rule_id: number;
  metric: AlertMetric;
  level: number;
  device_kind: AlertTarget;
  device_id: number;
  fbox_id: number;
  device_name: string;
  /** The reading that opened it (null for a state metric). */
  value: number | null;
  /** The worst reading while it was open: highest, lowest, or farthest outside the range. */
  peak_value: number | null;
  /** What a state metric reported (a miner's fault code); '' otherwise. */
  detail: string;
  started_at: number;
  ended_at: number | null;
  /** Why it ended (null while open). */
  end_reason: AlertEndReason | null;
  acked_by: number | null;
  acked_at: number | null;
  ack_note: string | null;
}

/** A rule held quiet on one device until `until` (migration 0018): no notifications go out. */
export interface AlertSilencesTable {
  rule_id: number;
  device_kind: AlertTarget;
  device_id: number;
  area_id: number;
  until: number;
  created_by: number;
  note: string | null;
  created_at: number;
}

/** The feature's tables, merged into the database's row types. */
declare module '../../db/schema.js' {
  interface DB {
    alert_rules: AlertRulesTable;
    alert_states: AlertStatesTable;
    alerts: AlertsTable;
    alert_silences: AlertSilencesTable;
  }
}
