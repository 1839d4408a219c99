import type { UnreadCount } from '@fbox/contracts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { MessageRepository } from './message.repository.js';

/** Notifications of the top bar's badge. Alert issues write the rows; this only counts them. */
export class MessageService {
  constructor(private readonly db: Kysely<DB>) {}

  async unread(userId: number, areaId?: number): Promise<UnreadCount> {
    return { count: await new MessageRepository(this.db).countUnread(userId, areaId) };
  }
}
