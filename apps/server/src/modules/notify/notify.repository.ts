import type { Insertable, Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { seesMine } from '../area/area-readers.js';
import type { NotificationsTable } from './notify.schema.js';

type Db = Kysely<DB> | Transaction<DB>;

/** A user who sees a mine, with their push settings (JSON text as stored). */
export interface Recipient {
  id: number;
  alert_send_level: string;
  email_send: string;
  sms_send: string;
  teams_send: string;
  telegram_send: string;
}

/** Kysely queries of the notification outbox and what its messages need. */
export class NotifyRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The active users who see the mine: its master and the sub-accounts it is assigned to. */
  recipients(trx: Db, areaId: number): Promise<Recipient[]> {
    return trx
      .selectFrom('users')
      .innerJoin('areas', (join) => join.onTrue())
      .select([
        'users.id',
        'users.alert_send_level',
        'users.email_send',
        'users.sms_send',
        'users.teams_send',
        'users.telegram_send',
      ])
      .where('areas.id', '=', areaId)
      .where('users.status', '=', 1)
      .where(seesMine)
      .orderBy('users.id')
      .execute();
  }

  /** Writes outbox rows; a row already written for the same transition, channel and address stays. */
  async insert(trx: Db, rows: Insertable<NotificationsTable>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200) {
      await trx
        .insertInto('notifications')
        .values(rows.slice(i, i + 200))
        .onConflict((oc) => oc.columns(['alert_id', 'kind', 'channel', 'user_id', 'address']).doNothing())
        .execute();
    }
  }

  /** Groups with a row due now and not held by a live lease. */
  async dueGroups(now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('notifications')
      .select('group_key')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where('leased_until', '<=', now)
      .groupBy('group_key')
      .orderBy((eb) => eb.fn.min('next_attempt_at'))
      .limit(limit)
      .execute();
    return rows.map((r) => r.group_key);
  }

  /**
   * Claims a group's pending rows that are free and due within `horizon` (the grouping window: rows
   * written a moment after the first go out with it). One conditional update: of two processes, the
   * second finds the rows leased and claims none.
   */
  async claimGroup(groupKey: string, owner: string, now: number, horizon: number, leaseUntil: number) {
    const rows = await this.db
      .updateTable('notifications')
      .set({ leased_by: owner, leased_until: leaseUntil })
      .where('group_key', '=', groupKey)
      .where('status', '=', 'pending')
      .where('leased_until', '<=', now)
      .where('next_attempt_at', '<=', horizon)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /** The claimed rows with their alert, mine and FBOX names, and the recipient's reading settings. */
  claimed(ids: number[], owner: string) {
    return this.db
      .selectFrom('notifications as n')
      .innerJoin('alerts as a', 'a.id', 'n.alert_id')
      .innerJoin('areas', 'areas.id', 'a.area_id')
      .leftJoin('fboxes', 'fboxes.id', 'a.fbox_id')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .leftJoin('notify_languages as l', 'l.user_id', 'n.user_id')
      .select([
        'n.id',
        'n.kind',
        'n.channel',
        'n.address',
        'n.attempts',
        'n.user_id',
        'a.id as alert_id',
        'a.area_id',
        'a.metric',
        'a.level',
        'a.device_kind',
        'a.device_name',
        'a.value',
        'a.detail',
        'a.started_at',
        'a.ended_at',
        'areas.area_name as mine_name',
        'fboxes.name as fbox_name',
        'u.time_zone',
        'l.language',
      ])
      .where('n.id', 'in', ids)
      .where('n.leased_by', '=', owner)
      .orderBy('a.started_at')
      .orderBy('n.id')
      .execute();
  }

  /** Settles claimed rows (only while this process still holds them) and frees them. */
  async settle(
    ids: number[],
    owner: string,
    outcome:
      | { status: 'sent'; at: number }
      | { status: 'failed'; error: string }
      | { status: 'pending'; error: string; nextAttemptAt: number },
  ): Promise<number> {
    const result = await this.db
      .updateTable('notifications')
      .set((eb) => ({
        status: outcome.status,
        attempts: eb('attempts', '+', 1),
        leased_by: null,
        leased_until: 0,
        ...(outcome.status === 'sent'
          ? { sent_at: outcome.at, last_error: null }
          : { last_error: outcome.error.slice(0, 500) }),
        ...(outcome.status === 'pending' && { next_attempt_at: outcome.nextAttemptAt }),
      }))
      .where('id', 'in', ids)
      .where('leased_by', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Takes one SMS credit of the user; false when none is left (no SMS may be sent). */
  async takeSmsCredit(userId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('users')
      .set((eb) => ({ sms_times: eb('sms_times', '-', 1) }))
      .where('id', '=', userId)
      .where('sms_times', '>', 0)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives back the credit of an SMS the provider did not accept. */
  async returnSmsCredit(userId: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ sms_times: eb('sms_times', '+', 1) }))
      .where('id', '=', userId)
      .execute();
  }

  /** A user's name, time zone, push settings and notification language. */
  user(userId: number) {
    return this.db
      .selectFrom('users as u')
      .leftJoin('notify_languages as l', 'l.user_id', 'u.id')
      .select([
        'u.id',
        'u.username',
        'u.time_zone',
        'u.email_send',
        'u.sms_send',
        'u.teams_send',
        'u.telegram_send',
        'l.language',
      ])
      .where('u.id', '=', userId)
      .executeTakeFirst();
  }

  /** Records the language of a user's notifications. */
  async setLanguage(userId: number, language: string, now: number): Promise<void> {
    await this.db
      .insertInto('notify_languages')
      .values({ user_id: userId, language, updated_at: now })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ language, updated_at: now }))
      .execute();
  }

  /** Whether the alert belongs to the mine. */
  async alertInArea(alertId: number, areaId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('alerts')
      .select('id')
      .where('id', '=', alertId)
      .where('area_id', '=', areaId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The notifications of an alert with their recipients' names, newest first. */
  ofAlert(alertId: number) {
    return this.db
      .selectFrom('notifications as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select([
        'n.id',
        'n.kind',
        'n.channel',
        'n.user_id',
        'u.username as recipient',
        'n.address',
        'n.status',
        'n.attempts',
        'n.last_error',
        'n.created_at',
        'n.sent_at',
      ])
      .where('n.alert_id', '=', alertId)
      .orderBy('n.id', 'desc')
      .execute();
  }
}
