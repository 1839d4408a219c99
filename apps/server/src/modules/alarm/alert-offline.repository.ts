import { type AlertMetric, type AlertTarget, offlineMetrics } from '@fbox/contracts';
import { type Expression, type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A pending offline condition whose sustain time has passed while the device stayed offline. */
export interface DueOffline {
  rule_id: number;
  device_kind: AlertTarget;
  device_id: number;
  area_id: number;
  fbox_id: number;
  metric: AlertMetric;
  level: number;
}

/**
 * Kysely queries of offline rules: offline detection reports a change once, so what it started is
 * carried on from the state tables by the `alarm-offline` job.
 */
export class AlertOfflineRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Marks pending, since `now`, the offline rules of boxes marked offline (once heard) and of their
   * offline miners that have no state yet: the listener of the process that marked them may have
   * died with it. Usually offline detection's listener has marked them already, and this adds nothing.
   */
  async pendOffline(now: number): Promise<void> {
    const since = sql<number>`cast(${now} as bigint)`;
    const none = sql<null>`cast(null as integer)`;
    const kind = (target: AlertTarget) => sql<AlertTarget>`cast(${target} as varchar(8))`.as('device_kind');
    const offlineBoxes = this.db
      .selectFrom('fbox_state')
      .where('fbox_state.online', '=', 0)
      .where('fbox_state.last_seen_at', 'is not', null);
    await this.insertPending(
      offlineBoxes
        .innerJoin('alert_rules', 'alert_rules.area_id', 'fbox_state.area_id')
        .select([
          'alert_rules.id',
          kind('fbox'),
          'fbox_state.fbox_id as device_id',
          'fbox_state.area_id',
          'fbox_state.fbox_id',
          since.as('pending_since'),
          none.as('alert_id'),
        ])
        .where('alert_rules.metric', '=', 'fbox_offline')
        .where('alert_rules.enabled', '=', 1),
    );
    await this.insertPending(
      offlineBoxes
        .innerJoin('miner_state', 'miner_state.fbox_id', 'fbox_state.fbox_id')
        .innerJoin('alert_rules', 'alert_rules.area_id', 'miner_state.area_id')
        .select([
          'alert_rules.id',
          kind('miner'),
          'miner_state.miner_id as device_id',
          'miner_state.area_id',
          'miner_state.fbox_id',
          since.as('pending_since'),
          none.as('alert_id'),
        ])
        .where('miner_state.online', '=', 0)
        .where('alert_rules.metric', '=', 'miner_offline')
        .where('alert_rules.enabled', '=', 1),
    );
  }

  /**
   * Inserts states selected by `rows` (rule, device, since), skipping any that exists already: the
   * primary key decides, one look-up per row. (A `not exists` in the select did the same, but
   * PostgreSQL, its statistics of alert_states taken while the table was nearly empty, joined it
   * by scanning the table for every offline miner: minutes for a large mine with many offline.)
   */
  private insertPending(rows: Expression<unknown>) {
    return this.db
      .insertInto('alert_states')
      .columns(['rule_id', 'device_kind', 'device_id', 'area_id', 'fbox_id', 'pending_since', 'alert_id'])
      .expression(rows as never)
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  /**
   * Pending offline conditions of enabled rules whose sustain time has passed, on devices still
   * marked offline: offline detection only reports the change, so these are fired from a job.
   */
  dueOffline(now: number): Promise<DueOffline[]> {
    const due = sql<boolean>`alert_states.pending_since + alert_rules.sustain_seconds * 1000 <= ${now}`;
    return this.db
      .selectFrom('alert_states')
      .innerJoin('alert_rules', 'alert_rules.id', 'alert_states.rule_id')
      .select([
        'alert_states.rule_id',
        'alert_states.device_kind',
        'alert_states.device_id',
        'alert_states.area_id',
        'alert_states.fbox_id',
        'alert_rules.metric',
        'alert_rules.level',
      ])
      .where('alert_states.alert_id', 'is', null)
      .where('alert_states.pending_since', 'is not', null)
      .where('alert_rules.enabled', '=', 1)
      .where('alert_rules.metric', 'in', offlineMetrics)
      .where(due)
      .where((eb) =>
        eb.or([
          eb.and([
            eb('alert_states.device_kind', '=', 'fbox'),
            eb.exists(
              eb
                .selectFrom('fbox_state')
                .select('fbox_state.fbox_id')
                .whereRef('fbox_state.fbox_id', '=', 'alert_states.device_id')
                .where('fbox_state.online', '=', 0),
            ),
          ]),
          eb.and([
            eb('alert_states.device_kind', '=', 'miner'),
            eb.exists(
              eb
                .selectFrom('miner_state')
                .select('miner_state.miner_id')
                .whereRef('miner_state.miner_id', '=', 'alert_states.device_id')
                .where('miner_state.online', '=', 0),
            ),
          ]),
        ]),
      )
      .execute();
  }
}
