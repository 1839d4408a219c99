import {
  Code,
  type InboxKind,
  type InboxListQuery,
  type InboxMessage,
  type InboxParams,
  InboxParamsSchema,
  inboxText,
  translate,
  type UnreadCount,
} from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CommandSettled } from '../../devices/command.service.js';
import { ApiError } from '../../lib/api-error.js';
import type { Clock } from '../../lib/clock.js';
import type { LiveEvent, LiveEvents } from '../../realtime/live-events.js';
import type { AlertTransition } from '../alarm/alarm.engine.js';
import type { AreaService } from '../area/area.service.js';
import type { SessionUser } from '../auth/auth.service.js';
import { MessageRepository, type Reader } from './message.repository.js';

declare module '../../realtime/live-events.js' {
  interface LiveEventMap {
    /** These users' inboxes changed (the hub tells only them; `areaId` 0 for a message of no mine). */
    inbox: { userIds: number[] };
  }
}

/** Messages to write: one per user, the same text. */
export interface InboxEntry {
  userIds: readonly number[];
  /** The mine it is about; null for none. */
  areaId: number | null;
  kind: InboxKind;
  /** 1 critical, 2 major, 3 minor. */
  level: number;
  params: InboxParams;
  alertId?: number | null;
}

/** An alert transition's announcement waits this long at most for the alert's own live event. */
const PENDING_MS = 60_000;

type Row = Awaited<ReturnType<MessageRepository['page']>>[number];

const paramsOf = (text: string): InboxParams => {
  try {
    const parsed = InboxParamsSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
};

const toMessage = (row: Row): InboxMessage => ({
  id: row.id,
  kind: row.kind,
  level: row.level,
  area_id: row.area_id,
  area_name: row.area_name ?? null,
  alert_id: row.alert_id,
  alert_open: row.alert_found == null ? null : row.alert_ended_at == null,
  params: paramsOf(row.params),
  title: row.title,
  content: row.content,
  created_at: Number(row.created_at),
  read_at: row.read_at == null ? null : Number(row.read_at),
});

const readerOf = (user: Pick<SessionUser, 'id' | 'isMaster' | 'parentId'>): Reader => ({
  id: user.id,
  isMaster: user.isMaster,
  parentId: user.parentId,
});

/** The English texts stored with a message, for readers that do not render its kind. */
const fallbackText = (entry: InboxEntry) =>
  inboxText({ ...entry, title: '', content: '' }, (key, params) => translate('en', key, params));

/**
 * The user's inbox (issue 13 item 4). Alert transitions write one message per user who sees the
 * mine, in the transaction that opens or closes the alert; a command a user sent that fails or
 * times out writes one to that user (failures of one batch add up in one unread message); other
 * features add theirs with `add`. Each is announced live to its users once it is committed. Every
 * read and write is scoped to the caller: another user's message, or one of a mine the caller no
 * longer sees, answers "not found".
 */
export class InboxService {
  /** Alert transitions written but not yet announced: waiting for the alert's live event (its commit). */
  private readonly pending = new Map<string, { at: number; announce: () => void }>();

  constructor(
    private readonly deps: {
      db: Kysely<DB>;
      clock: Clock;
      live: LiveEvents;
      areas: AreaService;
      log: FastifyBaseLogger;
    },
  ) {
    deps.live.on('live', (event) => this.onLive(event));
  }

  /** Writes messages and announces them to their users (for features outside a transaction). */
  async add(entry: InboxEntry): Promise<void> {
    const announce = await this.write(this.deps.db, entry);
    announce();
  }

  /**
   * Writes messages in the caller's transaction; returns the announcement, to call once it
   * committed (a browser told earlier could refetch before the rows are visible).
   */
  async write(db: Kysely<DB>, entry: InboxEntry): Promise<() => void> {
    if (entry.userIds.length === 0) return () => {};
    const { title, content } = fallbackText(entry);
    const now = this.deps.clock();
    await new MessageRepository(db).insert(
      entry.userIds.map((userId) => ({
        user_id: userId,
        area_id: entry.areaId,
        level: entry.level,
        kind: entry.kind,
        alert_id: entry.alertId ?? null,
        params: JSON.stringify(entry.params),
        title: title.slice(0, 200),
        content,
        created_at: now,
      })),
    );
    return () => this.announce(entry.userIds, entry.areaId);
  }

  /** The alarm engine's transition listener: a message to everyone who sees the alert's mine. */
  async onAlertTransition(trx: Transaction<DB>, transition: AlertTransition): Promise<void> {
    const { kind, alert } = transition;
    // A silenced rule sends nothing; an alert a person closed (rule changed or deleted, device
    // removed) did not recover: the person knows, the alert history says so.
    if (transition.silenced || kind === 'closed') return;
    const repo = new MessageRepository(trx);
    const { areaName, userIds } = await repo.readersOfArea(alert.area_id);
    if (userIds.length === 0) return;
    const announce = await this.write(trx, {
      userIds,
      areaId: alert.area_id,
      kind: kind === 'fired' ? 'alert_fired' : 'alert_recovered',
      level: alert.level,
      alertId: alert.id,
      params: {
        metric: alert.metric,
        target: alert.device_kind,
        device: alert.device_name,
        fbox: await repo.fboxName(alert.fbox_id),
        fbox_id: alert.fbox_id,
        mine: areaName,
        value: alert.value,
        peak: alert.peak_value,
        detail: alert.detail,
      },
    });
    const now = this.deps.clock();
    for (const [key, waiting] of this.pending) if (now - waiting.at > PENDING_MS) this.pending.delete(key);
    this.pending.set(`${alert.id}:${kind === 'fired'}`, { at: now, announce });
  }

  /** The engine publishes an alert's event after its transaction committed: the messages are visible. */
  private onLive(event: LiveEvent): void {
    if (event.type !== 'alert') return;
    const key = `${event.alertId}:${event.open}`;
    const waiting = this.pending.get(key);
    if (!waiting) return;
    this.pending.delete(key);
    // After the alert's event has reached every listener: the browser hears of the alert first.
    queueMicrotask(waiting.announce);
  }

  /** The command service's listener: a failed or timed-out command tells the user who sent it. */
  async onCommandSettled(settled: CommandSettled): Promise<void> {
    if (settled.status !== 'failed' && settled.status !== 'timed_out') return;
    const repo = new MessageRepository(this.deps.db);
    const command = await repo.commandOf(settled.id);
    if (!command || command.created_by === null) return;
    const userId = command.created_by;
    const params: InboxParams = {
      command: command.kind,
      device: command.miner_worker || command.miner_sn || command.tank_name || '',
      fbox: command.fbox_name,
      mine: command.area_name,
      status: settled.status,
      error: settled.error ?? '',
      count: 1,
      batch_id: command.batch_id,
    };
    const earlier = command.batch_id ? await repo.unreadOfBatch(userId, command.batch_id) : undefined;
    if (earlier) {
      const count = Number(paramsOf(earlier.params).count ?? 1) + 1;
      const next = { ...params, count };
      const { title, content } = fallbackText({
        userIds: [],
        areaId: command.area_id,
        kind: 'command_failed',
        level: 2,
        params: next,
      });
      await repo.updateParams(earlier.id, JSON.stringify(next), title.slice(0, 200), content, settled.at);
      this.announce([userId], command.area_id);
      return;
    }
    await this.add({ userIds: [userId], areaId: command.area_id, kind: 'command_failed', level: 2, params });
  }

  private announce(userIds: readonly number[], areaId: number | null): void {
    if (userIds.length > 0)
      this.deps.live.publish({ type: 'inbox', areaId: areaId ?? 0, userIds: [...userIds] });
  }

  /** The badge: unread messages of the mines the caller sees, of `areaId` (and of no mine) if given. */
  async unread(user: SessionUser, areaId?: number): Promise<UnreadCount> {
    const repo = new MessageRepository(this.deps.db);
    return { count: await repo.count(readerOf(user), { areaId, state: 'unread' }) };
  }

  /** A page of the caller's messages, newest first. A mine they do not see answers "not found". */
  async list(user: SessionUser, query: InboxListQuery) {
    if (query.area_id !== undefined) await this.deps.areas.requireAccess(user, query.area_id);
    const repo = new MessageRepository(this.deps.db);
    const filter = { areaId: query.area_id, state: query.state, kind: query.kind };
    const [rows, total] = await Promise.all([
      repo.page(readerOf(user), filter, query.limit, (query.page - 1) * query.limit),
      repo.count(readerOf(user), filter),
    ]);
    return { items: rows.map(toMessage), total, page: query.page, limit: query.limit };
  }

  /** Marks one of the caller's messages read (the first time stands); another's answers "not found". */
  async markRead(user: SessionUser, id: number): Promise<InboxMessage> {
    const repo = new MessageRepository(this.deps.db);
    const changed = await repo.markRead(readerOf(user), this.deps.clock(), { id });
    const row = await repo.one(readerOf(user), id);
    if (!row) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    if (changed > 0) this.announce([user.id], row.area_id);
    return toMessage(row);
  }

  /** Marks the caller's unread messages read: of one mine (and of no mine) when `areaId` is given. */
  async markAllRead(user: SessionUser, areaId?: number): Promise<{ updated: number }> {
    if (areaId !== undefined) await this.deps.areas.requireAccess(user, areaId);
    const repo = new MessageRepository(this.deps.db);
    const updated = await repo.markRead(readerOf(user), this.deps.clock(), { areaId });
    if (updated > 0) this.announce([user.id], areaId ?? null);
    return { updated };
  }
}
