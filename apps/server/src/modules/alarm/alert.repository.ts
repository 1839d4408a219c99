import type { AlertEndReason, AlertTarget } from '@fbox/contracts';
import type { Insertable, Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AlertStatesTable, AlertsTable } from './alarm.schema.js';

/** One rule on one device: the key of its state and of its open alert. */
export interface RuleDevice {
  ruleId: number;
  kind: AlertTarget;
  deviceId: number;
  areaId: number;
  fboxId: number;
}

/** A state row with the peak of its open alert (null when none is open). */
export type AlertStateRow = AlertStatesTable & { peak_value: number | null };

/** A new alert: all but its id, its end and its acknowledgement. */
export type NewAlert = Omit<
  Insertable<AlertsTable>,
  'id' | 'ended_at' | 'acked_by' | 'acked_at' | 'ack_note'
>;

/** Work done in the transaction of an alert's opening or closing, with the alert as stored. */
export type WithinTransition = (trx: Transaction<DB>, alert: Selectable<AlertsTable>) => Promise<void>;

/** Kysely queries for alert states and alerts, and the device ids and names they need. */
export class AlertRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The states of every rule on the given boxes and what hangs on them. */
  statesOfBoxes(fboxIds: readonly number[]): Promise<AlertStateRow[]> {
    if (fboxIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('alert_states')
      .leftJoin('alerts', 'alerts.id', 'alert_states.alert_id')
      .selectAll('alert_states')
      .select('alerts.peak_value')
      .where('alert_states.fbox_id', 'in', fboxIds)
      .execute();
  }

  /** Tank ids of the given boxes, with their position. */
  tanksOf(fboxIds: readonly number[]) {
    return this.db
      .selectFrom('tanks')
      .select(['id', 'fbox_id', 'no'])
      .where('fbox_id', 'in', fboxIds)
      .execute();
  }

  /** Miner ids of the given boxes, with their SN. */
  minersOf(fboxIds: readonly number[]) {
    return this.db
      .selectFrom('miners')
      .select(['id', 'fbox_id', 'sn'])
      .where('fbox_id', 'in', fboxIds)
      .execute();
  }

  /** The condition holds since `since` (kept when it held already). */
  async markPending(key: RuleDevice, since: number): Promise<void> {
    await this.db
      .insertInto('alert_states')
      .values({
        ...stateKey(key),
        area_id: key.areaId,
        fbox_id: key.fboxId,
        pending_since: since,
        alert_id: null,
      })
      .onConflict((oc) => oc.columns(['rule_id', 'device_kind', 'device_id']).doNothing())
      .execute();
  }

  /** The condition stopped holding before it fired. */
  async clearPending(key: RuleDevice): Promise<void> {
    await this.deleteState(this.db, key, true);
  }

  /**
   * Opens the alert unless one is open for the rule on the device already (the partial unique
   * index decides between processes), and records it in the state. Returns the new alert's id, or
   * null when it was open already. `within` runs in the same transaction, only for a new alert.
   */
  open(key: RuleDevice, alert: NewAlert, within?: WithinTransition): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('alerts')
        .values(alert)
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .executeTakeFirst();
      const alertId =
        inserted?.id ??
        (
          await trx
            .selectFrom('alerts')
            .select('id')
            .where('rule_id', '=', key.ruleId)
            .where('device_kind', '=', key.kind)
            .where('device_id', '=', key.deviceId)
            .where('ended_at', 'is', null)
            .executeTakeFirst()
        )?.id;
      if (alertId === undefined) return null;
      await trx
        .insertInto('alert_states')
        .values({
          ...stateKey(key),
          area_id: key.areaId,
          fbox_id: key.fboxId,
          pending_since: null,
          alert_id: alertId,
        })
        .onConflict((oc) =>
          oc.columns(['rule_id', 'device_kind', 'device_id']).doUpdateSet({ alert_id: alertId }),
        )
        .execute();
      if (!inserted) return null;
      if (within) await within(trx, await selectAlert(trx, alertId));
      return alertId;
    });
  }

  /** Moves an open alert's peak from `previous` to `peak` (unless another evaluation moved it). */
  async raisePeak(alertId: number, peak: number, previous: number): Promise<void> {
    await this.db
      .updateTable('alerts')
      .set({ peak_value: peak })
      .where('id', '=', alertId)
      .where('ended_at', 'is', null)
      .where('peak_value', '=', previous)
      .execute();
  }

  /**
   * Ends an open alert and forgets the state; false when it was closed already. `within` runs in
   * the same transaction, only when this call closed it.
   */
  close(key: RuleDevice, alertId: number, now: number, within?: WithinTransition): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const ended = await trx
        .updateTable('alerts')
        .set({ ended_at: now, end_reason: 'recovered' })
        .where('id', '=', alertId)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      await this.deleteState(trx, key, false);
      const closed = Number(ended.numUpdatedRows) > 0;
      if (closed && within) await within(trx, await selectAlert(trx, alertId));
      return closed;
    });
  }

  /**
   * Closes, for `reason`, the open alerts of a rule or of devices, and forgets their states (pending
   * ones too); `within` runs for each in the same transaction. Returns the closed alerts.
   */
  closeWhere(
    which:
      | { ruleId: number }
      | { fboxId: number }
      | { areaId: number; kind: AlertTarget; deviceIds: readonly number[] },
    reason: Exclude<AlertEndReason, 'recovered'>,
    now: number,
    within?: WithinTransition,
  ): Promise<Selectable<AlertsTable>[]> {
    if ('deviceIds' in which && which.deviceIds.length === 0) return Promise.resolve([]);
    return this.db.transaction().execute(async (trx) => {
      let update = trx
        .updateTable('alerts')
        .set({ ended_at: now, end_reason: reason })
        .where('ended_at', 'is', null);
      let forget = trx.deleteFrom('alert_states');
      if ('ruleId' in which) {
        update = update.where('rule_id', '=', which.ruleId);
        forget = forget.where('rule_id', '=', which.ruleId);
      } else if ('fboxId' in which) {
        update = update.where('fbox_id', '=', which.fboxId);
        forget = forget.where('fbox_id', '=', which.fboxId);
      } else {
        const { areaId, kind, deviceIds } = which;
        update = update
          .where('area_id', '=', areaId)
          .where('device_kind', '=', kind)
          .where('device_id', 'in', deviceIds);
        forget = forget
          .where('area_id', '=', areaId)
          .where('device_kind', '=', kind)
          .where('device_id', 'in', deviceIds);
      }
      const closed = await update.returningAll().execute();
      await forget.execute();
      if (within) for (const alert of closed) await within(trx, alert);
      return closed;
    });
  }

  /** Whether the alert's rule is silenced on its device at `at`. */
  async isSilenced(alert: Pick<AlertsTable, 'rule_id' | 'device_kind' | 'device_id'>, at: number) {
    const row = await this.db
      .selectFrom('alert_silences')
      .select('until')
      .where('rule_id', '=', alert.rule_id)
      .where('device_kind', '=', alert.device_kind)
      .where('device_id', '=', alert.device_id)
      .where('until', '>', at)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** What an alert calls its device: the box's or tank's name, a miner's worker (or SN). */
  async deviceName(kind: AlertTarget, id: number): Promise<string> {
    if (kind === 'fbox') {
      const row = await this.db.selectFrom('fboxes').select('name').where('id', '=', id).executeTakeFirst();
      return row?.name ?? '';
    }
    if (kind === 'tank') {
      const row = await this.db.selectFrom('tanks').select('name').where('id', '=', id).executeTakeFirst();
      return row?.name ?? '';
    }
    const row = await this.db
      .selectFrom('miner_state')
      .select(['worker', 'sn'])
      .where('miner_id', '=', id)
      .executeTakeFirst();
    return row?.worker || row?.sn || '';
  }

  /** Deletes the state of a rule on a device; only a pending one with `pendingOnly`. */
  private async deleteState(db: Kysely<DB>, key: RuleDevice, pendingOnly: boolean): Promise<void> {
    let query = db
      .deleteFrom('alert_states')
      .where('rule_id', '=', key.ruleId)
      .where('device_kind', '=', key.kind)
      .where('device_id', '=', key.deviceId);
    if (pendingOnly) query = query.where('alert_id', 'is', null);
    await query.execute();
  }
}

const selectAlert = (trx: Transaction<DB>, id: number) =>
  trx.selectFrom('alerts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const stateKey = (key: RuleDevice) => ({
  rule_id: key.ruleId,
  device_kind: key.kind,
  device_id: key.deviceId,
});
