import type { CommandStatus } from '@fbox/contracts';
import type { Kysely, Selectable } from 'kysely';
import type { CommandsTable, DB } from '../db/schema.js';

export type CommandRow = Selectable<CommandsTable>;

/** Kysely queries for command rows; every status change is a conditional update (no lost races). */
export class CommandRepository {
  constructor(private readonly db: Kysely<DB>) {}

  async insert(rows: CommandRow[]): Promise<void> {
    // Chunked so a batch of thousands stays under both drivers' parameter limits.
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .insertInto('commands')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  async markSent(id: string, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('commands')
      .set({ status: 'sent', sent_at: now })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Applies an ack to a command still waiting for one; false when it was already settled. */
  async settle(id: string, status: CommandStatus, error: string | null, now: number): Promise<boolean> {
    const r = await this.db
      .updateTable('commands')
      .set({ status, error, acked_at: status === 'timed_out' ? null : now })
      .where('id', '=', id)
      .where('status', 'in', ['pending', 'sent'])
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  /** Commands with the device id of their gateway. */
  private withDevice() {
    return this.db
      .selectFrom('commands')
      .innerJoin('fboxes', 'fboxes.id', 'commands.fbox_id')
      .selectAll('commands')
      .select('fboxes.device_id');
  }

  find(id: string): Promise<(CommandRow & { device_id: string }) | undefined> {
    return this.withDevice().where('commands.id', '=', id).executeTakeFirst();
  }

  /** Commands among `ids` not settled yet (pending or sent), with their gateway's device id. */
  findOpen(ids: string[]) {
    return this.withDevice()
      .where('commands.id', 'in', ids)
      .where('commands.status', 'in', ['pending', 'sent'])
      .execute();
  }

  findMany(ids: string[], areaIds: number[]): Promise<CommandRow[]> {
    if (ids.length === 0 || areaIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('commands')
      .selectAll()
      .where('id', 'in', ids)
      .where('area_id', 'in', areaIds)
      .execute();
  }

  /** The commands of one batch (a multi-device action) in the given areas, at most `limit`. */
  findBatch(batchId: string, areaIds: number[], limit: number): Promise<CommandRow[]> {
    if (areaIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('commands')
      .selectAll()
      .where('batch_id', '=', batchId)
      .where('area_id', 'in', areaIds)
      .limit(limit)
      .execute();
  }

  listForMiner(minerId: number, limit: number): Promise<CommandRow[]> {
    return this.db
      .selectFrom('commands')
      .selectAll()
      .where('miner_id', '=', minerId)
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Commands whose ack deadline passed. */
  expired(now: number, limit: number): Promise<CommandRow[]> {
    return this.db
      .selectFrom('commands')
      .selectAll()
      .where('status', 'in', ['pending', 'sent'])
      .where('timeout_at', '<=', now)
      .limit(limit)
      .execute();
  }
}
