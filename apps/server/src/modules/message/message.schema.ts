import type { InboxKind } from '@fbox/contracts';
import type { Generated } from 'kysely';

/**
 * What migration 0017 adds to the core's `messages` table: the message's kind and parameters, so
 * the web renders it in the reader's language, and the alert of an alert transition.
 */
declare module '../../db/schema.js' {
  interface MessagesTable {
    kind: Generated<InboxKind>;
    /** The alert an `alert_fired` / `alert_recovered` message is about (no foreign key: history). */
    alert_id: number | null;
    /** JSON text of the message's parameters (contracts `InboxParams`). */
    params: Generated<string>;
  }
}
