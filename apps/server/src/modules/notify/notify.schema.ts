import type { NotificationStatus, PushChannel } from '@fbox/contracts';
import type { Generated } from 'kysely';

/**
 * The notification outbox (migration 0016): one row per alert transition, channel and address of
 * a recipient, written in the transaction of the transition. Times are UTC epoch ms.
 */
export interface NotificationsTable {
  id: Generated<number>;
  alert_id: number;
  area_id: number;
  user_id: number;
  kind: 'fired' | 'recovered';
  channel: PushChannel;
  /** E-mail address, phone (`+<code> <number>`), Teams webhook URL or Telegram chat id. */
  address: string;
  /** Rule, FBOX, kind, recipient, channel and address: rows of one group go out as one message. */
  group_key: string;
  status: NotificationStatus;
  attempts: number;
  /** Not sent before this (the grouping delay, then each retry's backoff). */
  next_attempt_at: number;
  /** A process sending the row holds it until then; 0 when free. */
  leased_until: number;
  leased_by: string | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** The language a user's notifications are written in (recorded from the console at push-settings save). */
export interface NotifyLanguagesTable {
  user_id: number;
  language: string;
  updated_at: number;
}

declare module '../../db/schema.js' {
  interface DB {
    notifications: NotificationsTable;
    notify_languages: NotifyLanguagesTable;
  }
}
