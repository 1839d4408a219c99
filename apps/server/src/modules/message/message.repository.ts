import type { InboxKind } from '@fbox/contracts';
import type { ExpressionBuilder, Insertable, Kysely } from 'kysely';
import type { DB, MessagesTable } from '../../db/schema.js';
import { seesMine } from '../area/area-readers.js';

/** Whose messages: the user, and which mines they still see (a master owns, a sub-account manages). */
export interface Reader {
  id: number;
  isMaster: boolean;
  parentId: number | null;
}

/** Filters of a list of a user's messages. */
export interface InboxFilter {
  /** The top bar's mine: its messages and those of no mine. */
  areaId?: number | undefined;
  state?: 'unread' | 'read' | undefined;
  kind?: InboxKind | undefined;
}

export type NewMessage = Insertable<MessagesTable>;

/**
 * A message is shown while its mine is one the reader still sees (or it is of no mine): a
 * sub-account that stops managing a mine stops seeing its messages, and sees them again if it is
 * given the mine back.
 */
const visibleTo = (reader: Reader) => (eb: ExpressionBuilder<DB, 'messages'>) => {
  const areas = reader.isMaster
    ? eb.selectFrom('areas').select('areas.id').where('areas.owner_id', '=', reader.id)
    : eb
        .selectFrom('user_areas')
        .innerJoin('areas', 'areas.id', 'user_areas.area_id')
        .select('areas.id')
        .where('user_areas.user_id', '=', reader.id)
        .where('areas.owner_id', '=', reader.parentId ?? -1);
  return eb.or([eb('messages.area_id', 'is', null), eb('messages.area_id', 'in', areas)]);
};

const inArea = (areaId: number) => (eb: ExpressionBuilder<DB, 'messages'>) =>
  eb.or([eb('messages.area_id', '=', areaId), eb('messages.area_id', 'is', null)]);

const messageColumns = [
  'messages.id',
  'messages.kind',
  'messages.level',
  'messages.area_id',
  'areas.area_name',
  'messages.alert_id',
  'alerts.id as alert_found',
  'alerts.ended_at as alert_ended_at',
  'messages.params',
  'messages.title',
  'messages.content',
  'messages.created_at',
  'messages.read_at',
] as const;

/** Kysely queries of the inbox (`messages`). Every read and write is scoped to one reader. */
export class MessageRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The users who see a mine: its master and the active sub-accounts of that master managing it. */
  async readersOfArea(areaId: number): Promise<{ areaName: string; userIds: number[] }> {
    const rows = await this.db
      .selectFrom('areas')
      .innerJoin('users', (join) => join.on(seesMine))
      .select(['users.id', 'areas.area_name'])
      .where('areas.id', '=', areaId)
      .where('users.status', '=', 1)
      .orderBy('users.id')
      .execute();
    return { areaName: rows[0]?.area_name ?? '', userIds: rows.map((r) => r.id) };
  }

  async fboxName(fboxId: number): Promise<string> {
    const row = await this.db.selectFrom('fboxes').select('name').where('id', '=', fboxId).executeTakeFirst();
    return row?.name ?? '';
  }

  /** A settled command with what a message about it names: its sender, mine, FBOX and device. */
  commandOf(id: string) {
    return this.db
      .selectFrom('commands')
      .innerJoin('fboxes', 'fboxes.id', 'commands.fbox_id')
      .leftJoin('miners', 'miners.id', 'commands.miner_id')
      .leftJoin('miner_info as miner_state', 'miner_state.miner_id', 'commands.miner_id')
      .leftJoin('tanks', 'tanks.id', 'commands.tank_id')
      .innerJoin('areas', 'areas.id', 'commands.area_id')
      .select([
        'areas.area_name',
        'commands.id',
        'commands.area_id',
        'commands.kind',
        'commands.created_by',
        'commands.batch_id',
        'fboxes.name as fbox_name',
        'miners.sn as miner_sn',
        'miner_state.worker as miner_worker',
        'tanks.name as tank_name',
      ])
      .where('commands.id', '=', id)
      .executeTakeFirst();
  }

  /**
   * The unread message of a user about a command batch, if any: failures of one batch (a restart of
   * 200 miners) add up in one message instead of 200.
   */
  async unreadOfBatch(userId: number, batchId: string) {
    // Batch ids are hex, so the JSON text can be matched without a dialect's JSON functions.
    if (!/^[\w-]+$/.test(batchId)) return undefined;
    return this.db
      .selectFrom('messages')
      .select(['id', 'params'])
      .where('user_id', '=', userId)
      .where('kind', '=', 'command_failed')
      .where('read_at', 'is', null)
      .where('params', 'like', `%"batch_id":"${batchId}"%`)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  }

  async insert(rows: NewMessage[]): Promise<void> {
    if (rows.length > 0) await this.db.insertInto('messages').values(rows).execute();
  }

  /** Rewrites an unread message's parameters and texts, and moves it to the top of the inbox. */
  async updateParams(id: number, params: string, title: string, content: string, now: number): Promise<void> {
    await this.db
      .updateTable('messages')
      .set({ params, title, content, created_at: now })
      .where('id', '=', id)
      .where('read_at', 'is', null)
      .execute();
  }

  private listed(reader: Reader, filter: InboxFilter) {
    let query = this.db
      .selectFrom('messages')
      .where('messages.user_id', '=', reader.id)
      .where(visibleTo(reader));
    if (filter.areaId !== undefined) query = query.where(inArea(filter.areaId));
    if (filter.state === 'unread') query = query.where('messages.read_at', 'is', null);
    if (filter.state === 'read') query = query.where('messages.read_at', 'is not', null);
    if (filter.kind !== undefined) query = query.where('messages.kind', '=', filter.kind);
    return query;
  }

  /** A page of a reader's messages, newest first, with their mine's name and their alert's state. */
  page(reader: Reader, filter: InboxFilter, limit: number, offset: number) {
    return this.listed(reader, filter)
      .leftJoin('areas', 'areas.id', 'messages.area_id')
      .leftJoin('alerts', 'alerts.id', 'messages.alert_id')
      .select(messageColumns)
      .orderBy('messages.created_at', 'desc')
      .orderBy('messages.id', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async count(reader: Reader, filter: InboxFilter): Promise<number> {
    const row = await this.listed(reader, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** One message of the reader (none for another user's, or one of a mine they no longer see). */
  async one(reader: Reader, id: number) {
    const [row] = await this.listed(reader, {})
      .leftJoin('areas', 'areas.id', 'messages.area_id')
      .leftJoin('alerts', 'alerts.id', 'messages.alert_id')
      .select(messageColumns)
      .where('messages.id', '=', id)
      .execute();
    return row;
  }

  /** Marks unread messages of the reader read: one (`id`) or all of the filter. Returns how many. */
  async markRead(reader: Reader, now: number, target: { id: number } | { areaId?: number | undefined }) {
    let query = this.db
      .updateTable('messages')
      .set({ read_at: now })
      .where('messages.user_id', '=', reader.id)
      .where('messages.read_at', 'is', null)
      .where(visibleTo(reader));
    if ('id' in target) query = query.where('messages.id', '=', target.id);
    else if (target.areaId !== undefined) query = query.where(inArea(target.areaId));
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
