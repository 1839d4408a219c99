import type { MinerLogExportStatus, MinerLogItemState, MinerLogScope } from '@fbox/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { CommandRow } from '../../devices/command.repository.js';

/** A miner picked for an export. */
export interface PickedMiner {
  miner_id: number;
  fbox_id: number;
  sn: string;
}

export interface NewExport {
  area_id: number;
  scope: MinerLogScope;
  scope_label: string;
  from_ts: number;
  to_ts: number;
  created_by: number | null;
  created_at: number;
  expires_at: number;
}

/** A requested miner with its command's outcome and what arrived of its log. */
export interface RequestedMiner {
  miner_id: number;
  fbox_id: number;
  command_id: string;
  status: string | null;
  error: string | null;
  acked_at: number | null;
  /** Parts stored, the number of the final part when it arrived, and their bytes. */
  parts: number;
  last_part: number | null;
  bytes: number;
}

const num = (value: unknown): number => Number(value ?? 0);

const exportColumns = [
  'log_exports.id',
  'log_exports.area_id',
  'log_exports.scope',
  'log_exports.scope_label',
  'log_exports.from_ts as from',
  'log_exports.to_ts as to',
  'log_exports.status',
  'log_exports.total',
  'log_exports.done',
  'log_exports.failed',
  'log_exports.bytes',
  'users.username as created_by',
  'log_exports.created_at',
  'log_exports.updated_at',
  'log_exports.expires_at',
] as const;

/**
 * Queries of the miner log export: the picking of miners, the exports and their miners, the parts
 * of each miner's log, and what the export job reads and settles.
 */
export class LogExportRepository {
  constructor(private readonly db: Kysely<DB>) {}

  // ── picking miners ──

  /** Names of the area's FBOXes among `ids` (fewer rows than ids: some are not the area's). */
  fboxNames(areaId: number, ids: number[]) {
    return this.db
      .selectFrom('fboxes')
      .select(['id', 'name'])
      .where('area_id', '=', areaId)
      .where('id', 'in', ids)
      .orderBy('name')
      .execute();
  }

  tankNames(areaId: number, ids: number[]) {
    return this.db
      .selectFrom('tanks')
      .innerJoin('fboxes', 'fboxes.id', 'tanks.fbox_id')
      .select([
        'tanks.id',
        sql<string>`${sql.ref('fboxes.name')} || ' / ' || ${sql.ref('tanks.name')}`.as('name'),
      ])
      .where('tanks.area_id', '=', areaId)
      .where('tanks.id', 'in', ids)
      .orderBy('fboxes.name')
      .orderBy('tanks.no')
      .execute();
  }

  groupNames(areaId: number, ids: number[]) {
    return this.db
      .selectFrom('miner_groups')
      .select(['id', 'name'])
      .where('area_id', '=', areaId)
      .where('id', 'in', ids)
      .orderBy('name')
      .execute();
  }

  /** The area's miners in the FBOXes, tanks, groups or ids named, at most `limit`, by id. */
  minersOf(areaId: number, scope: Exclude<MinerLogScope, 'filter'>, ids: number[], limit: number) {
    let q = this.db
      .selectFrom('miner_state')
      .select(['miner_state.miner_id', 'miner_state.fbox_id', 'miner_state.sn'])
      .where('miner_state.area_id', '=', areaId);
    if (scope === 'fbox') q = q.where('miner_state.fbox_id', 'in', ids);
    else if (scope === 'tank') q = q.where('miner_state.tank_id', 'in', ids);
    else if (scope === 'miners') q = q.where('miner_state.miner_id', 'in', ids);
    else
      q = q.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('miner_group_members')
            .select(sql.lit(1).as('one'))
            .whereRef('miner_group_members.miner_id', '=', 'miner_state.miner_id')
            .where('miner_group_members.group_id', 'in', ids),
        ),
      );
    return q.orderBy('miner_state.miner_id').limit(limit).execute();
  }

  // ── exports ──

  async countOf(areaId: number): Promise<number> {
    const row = await this.db
      .selectFrom('log_exports')
      .select(sql<number>`count(*)`.as('n'))
      .where('area_id', '=', areaId)
      .executeTakeFirst();
    return num(row?.n);
  }

  /** Writes an export, Processing, with its miners queued; returns its id. */
  async create(values: NewExport, miners: PickedMiner[]): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('log_exports')
        .values({ ...values, status: 'processing', total: miners.length, updated_at: values.created_at })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (let i = 0; i < miners.length; i += 500) {
        await trx
          .insertInto('log_export_miners')
          .values(
            miners.slice(i, i + 500).map((m) => ({
              export_id: id,
              miner_id: m.miner_id,
              fbox_id: m.fbox_id,
              sn: m.sn,
              state: 'queued' as const,
              updated_at: values.created_at,
            })),
          )
          .execute();
      }
      return id;
    });
  }

  private exports() {
    return this.db
      .selectFrom('log_exports')
      .leftJoin('users', 'users.id', 'log_exports.created_by')
      .select(exportColumns);
  }

  async find(areaId: number, id: number) {
    return this.exports()
      .where('log_exports.area_id', '=', areaId)
      .where('log_exports.id', '=', id)
      .executeTakeFirst();
  }

  /** The area's exports, newest first. */
  async page(areaId: number, limit: number, offset: number) {
    const [items, total] = await Promise.all([
      this.exports()
        .where('log_exports.area_id', '=', areaId)
        .orderBy('log_exports.created_at', 'desc')
        .orderBy('log_exports.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      this.countOf(areaId),
    ]);
    return { items, total };
  }

  /** An export's miners, optionally of one state, by FBOX name and SN. */
  async items(exportId: number, state: MinerLogItemState | undefined, limit: number, offset: number) {
    let q = this.db
      .selectFrom('log_export_miners as m')
      .leftJoin('fboxes', 'fboxes.id', 'm.fbox_id')
      .leftJoin('miner_info as miner_state', 'miner_state.miner_id', 'm.miner_id')
      .where('m.export_id', '=', exportId);
    if (state) q = q.where('m.state', '=', state);
    const [items, count] = await Promise.all([
      q
        .select([
          'm.miner_id',
          'm.sn',
          sql<string>`coalesce(${sql.ref('miner_state.worker')}, '')`.as('worker'),
          sql<string>`coalesce(${sql.ref('miner_state.ip')}, '')`.as('ip'),
          'm.fbox_id',
          sql<string>`coalesce(${sql.ref('fboxes.name')}, '')`.as('fbox_name'),
          'm.state',
          'm.error',
          'm.bytes',
          'm.updated_at',
        ])
        .orderBy('fboxes.name')
        .orderBy('m.sn')
        .limit(limit)
        .offset(offset)
        .execute(),
      q.select(sql<number>`count(*)`.as('n')).executeTakeFirst(),
    ]);
    return { items, total: num(count?.n) };
  }

  /** Processing → Canceled, with every miner not yet settled; false when it was not processing. */
  async cancel(areaId: number, id: number, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('log_exports')
        .set({ status: 'canceled', updated_at: now })
        .where('area_id', '=', areaId)
        .where('id', '=', id)
        .where('status', '=', 'processing')
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return false;
      await trx
        .updateTable('log_export_miners')
        .set({ state: 'canceled', error: '@logExport.canceled', updated_at: now })
        .where('export_id', '=', id)
        .where('state', 'in', ['queued', 'requested'])
        .execute();
      return true;
    });
  }

  /** Deletes exports and the logs they hold; returns how many went. */
  async delete(ids: number[]): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('log_export_parts')
        .where('command_id', 'in', (eb) =>
          eb
            .selectFrom('log_export_miners')
            .select('command_id')
            .where('export_id', 'in', ids)
            .where('command_id', 'is not', null)
            .$narrowType<{ command_id: string }>(),
        )
        .execute();
      await trx.deleteFrom('log_export_miners').where('export_id', 'in', ids).execute();
      const deleted = await trx.deleteFrom('log_exports').where('id', 'in', ids).executeTakeFirst();
      return Number(deleted.numDeletedRows);
    });
  }

  /** Exports past their expiry, at most `limit`. */
  async expired(now: number, limit: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('log_exports')
      .select('id')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  // ── the job ──

  async processing(limit: number) {
    return this.db
      .selectFrom('log_exports')
      .select(['id', 'area_id', 'from_ts', 'to_ts'])
      .where('status', '=', 'processing')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The export's requested miners, each with its command's outcome and the parts stored so far. */
  async requested(exportId: number): Promise<RequestedMiner[]> {
    const rows = await this.db
      .selectFrom('log_export_miners as m')
      .leftJoin('commands', 'commands.id', 'm.command_id')
      .leftJoin(
        (eb) =>
          eb
            .selectFrom('log_export_parts')
            .select([
              'command_id',
              sql<number>`count(*)`.as('parts'),
              sql<number | null>`max(case when ${sql.ref('last')} = 1 then ${sql.ref('part')} end)`.as(
                'last_part',
              ),
              sql<number>`sum(${sql.ref('bytes')})`.as('bytes'),
            ])
            .where('command_id', 'in', (sub) =>
              sub
                .selectFrom('log_export_miners')
                .select('command_id')
                .where('export_id', '=', exportId)
                .where('state', '=', 'requested')
                .$narrowType<{ command_id: string }>(),
            )
            .groupBy('command_id')
            .as('p'),
        (join) => join.onRef('p.command_id', '=', 'm.command_id'),
      )
      .select([
        'm.miner_id',
        'm.fbox_id',
        'm.command_id',
        'commands.status',
        'commands.error',
        'commands.acked_at',
        'p.parts',
        'p.last_part',
        'p.bytes',
      ])
      .where('m.export_id', '=', exportId)
      .where('m.state', '=', 'requested')
      .execute();
    return rows.map((r) => ({
      miner_id: r.miner_id,
      fbox_id: r.fbox_id,
      command_id: r.command_id!,
      status: r.status,
      error: r.error,
      acked_at: r.acked_at === null ? null : num(r.acked_at),
      parts: num(r.parts),
      last_part: r.last_part === null ? null : num(r.last_part),
      bytes: num(r.bytes),
    }));
  }

  /** Settles requested miners (done with their bytes, or failed with a reason). */
  async settle(
    exportId: number,
    outcomes: { miner_id: number; state: 'done' | 'failed'; error: string | null; bytes: number }[],
    now: number,
  ): Promise<void> {
    for (const o of outcomes) {
      await this.db
        .updateTable('log_export_miners')
        .set({ state: o.state, error: o.error, bytes: o.bytes, updated_at: now })
        .where('export_id', '=', exportId)
        .where('miner_id', '=', o.miner_id)
        .where('state', '=', 'requested')
        .execute();
    }
  }

  /** Queued miners of each FBOX with room, at most `room[fboxId]` each, with the FBOX's online state. */
  async queued(exportId: number, perFbox: number) {
    const queuedBoxes = await this.db
      .selectFrom('log_export_miners as m')
      .leftJoin('fbox_state', 'fbox_state.fbox_id', 'm.fbox_id')
      .leftJoin('fboxes', 'fboxes.id', 'm.fbox_id')
      .select([
        'm.fbox_id',
        sql<number>`coalesce(${sql.ref('fbox_state.online')}, 0)`.as('online'),
        sql<number>`sum(case when ${sql.ref('m.state')} = 'requested' then 1 else 0 end)`.as('requested'),
        sql<number>`sum(case when ${sql.ref('m.state')} = 'queued' then 1 else 0 end)`.as('queued'),
        sql<number>`count(${sql.ref('fboxes.id')})`.as('present'),
      ])
      .where('m.export_id', '=', exportId)
      .where('m.state', 'in', ['queued', 'requested'])
      .groupBy(['m.fbox_id', 'fbox_state.online'])
      .execute();
    const picks: { fbox_id: number; online: boolean; present: boolean; miners: PickedMiner[] }[] = [];
    for (const box of queuedBoxes) {
      const room = perFbox - num(box.requested);
      if (num(box.queued) === 0 || room <= 0) continue;
      const online = num(box.online) === 1;
      const miners = await this.db
        .selectFrom('log_export_miners')
        .select(['miner_id', 'fbox_id', 'sn'])
        .where('export_id', '=', exportId)
        .where('fbox_id', '=', box.fbox_id)
        .where('state', '=', 'queued')
        .orderBy('sn')
        // An offline or removed FBOX fails its miners at once: all of them, not a window's worth.
        .limit(online && num(box.present) > 0 ? room : 100_000)
        .execute();
      picks.push({ fbox_id: box.fbox_id, online, present: num(box.present) > 0, miners });
    }
    return picks;
  }

  /** Which of the miners still exist, with their tank (the command's target lives in its FBOX). */
  async liveMiners(ids: number[]) {
    if (ids.length === 0) return [];
    return this.db
      .selectFrom('miner_state')
      .select(['miner_id', 'fbox_id', 'sn'])
      .where('miner_id', 'in', ids)
      .execute();
  }

  /**
   * Writes the `miner.logs` commands and marks their miners requested, in one transaction: a part
   * that arrives the moment the command is published finds its miner waiting for it.
   */
  async request(exportId: number, commands: CommandRow[], now: number): Promise<void> {
    if (commands.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('commands').values(commands).execute();
      for (const c of commands) {
        await trx
          .updateTable('log_export_miners')
          .set({ state: 'requested', command_id: c.id, updated_at: now })
          .where('export_id', '=', exportId)
          .where('miner_id', '=', c.miner_id!)
          .where('state', '=', 'queued')
          .execute();
      }
    });
  }

  /** Fails queued miners with a reason (their FBOX is offline, or they are gone). */
  async failQueued(exportId: number, minerIds: number[], error: string, now: number): Promise<void> {
    for (let i = 0; i < minerIds.length; i += 500) {
      await this.db
        .updateTable('log_export_miners')
        .set({ state: 'failed', error, updated_at: now })
        .where('export_id', '=', exportId)
        .where('miner_id', 'in', minerIds.slice(i, i + 500))
        .where('state', '=', 'queued')
        .execute();
    }
  }

  /**
   * Recounts an export's miners into its row and finishes it when none is left to settle. Returns
   * its status afterwards.
   */
  async recount(exportId: number, now: number): Promise<MinerLogExportStatus | null> {
    const [current, counts] = await Promise.all([
      this.db
        .selectFrom('log_exports')
        .select(['status', 'done', 'failed', 'bytes'])
        .where('id', '=', exportId)
        .executeTakeFirst(),
      this.db
        .selectFrom('log_export_miners')
        .select([
          sql<number>`sum(case when ${sql.ref('state')} = 'done' then 1 else 0 end)`.as('done'),
          sql<number>`sum(case when ${sql.ref('state')} = 'failed' then 1 else 0 end)`.as('failed'),
          sql<number>`sum(case when ${sql.ref('state')} in ('queued', 'requested') then 1 else 0 end)`.as(
            'open',
          ),
          sql<number>`sum(${sql.ref('bytes')})`.as('bytes'),
        ])
        .where('export_id', '=', exportId)
        .executeTakeFirst(),
    ]);
    if (current?.status !== 'processing') return current?.status ?? null;
    const next = { done: num(counts?.done), failed: num(counts?.failed), bytes: num(counts?.bytes) };
    const finished = num(counts?.open) === 0;
    const changed =
      next.done !== num(current.done) ||
      next.failed !== num(current.failed) ||
      next.bytes !== num(current.bytes);
    if (!changed && !finished) return 'processing';
    await this.db
      .updateTable('log_exports')
      .set({ ...next, updated_at: now, ...(finished ? { status: 'finished' as const } : {}) })
      .where('id', '=', exportId)
      .where('status', '=', 'processing')
      .execute();
    return finished ? 'finished' : 'processing';
  }

  // ── parts ──

  /**
   * Stores a part of a log when the command asked for it is a requested miner's of this FBOX;
   * a repeat is ignored. Returns false when nothing asked for it (canceled, settled or foreign).
   */
  async addPart(
    fboxId: number,
    part: { command_id: string; part: number; last: boolean; data: string; bytes: number },
  ): Promise<boolean> {
    const owner = await this.db
      .selectFrom('log_export_miners')
      .select('export_id')
      .where('command_id', '=', part.command_id)
      .where('fbox_id', '=', fboxId)
      .where('state', '=', 'requested')
      .executeTakeFirst();
    if (!owner) return false;
    await this.db
      .insertInto('log_export_parts')
      .values({ ...part, last: part.last ? 1 : 0 })
      .onConflict((oc) => oc.columns(['command_id', 'part']).doNothing())
      .execute();
    return true;
  }

  /** Every miner of an export for its zip, by FBOX name and SN. */
  zipEntries(exportId: number) {
    return this.db
      .selectFrom('log_export_miners as m')
      .leftJoin('fboxes', 'fboxes.id', 'm.fbox_id')
      .select([
        'm.sn',
        sql<string>`coalesce(${sql.ref('fboxes.name')}, '')`.as('fbox_name'),
        'm.state',
        'm.command_id',
        'm.error',
        'm.bytes',
      ])
      .where('m.export_id', '=', exportId)
      .orderBy('fboxes.name')
      .orderBy('m.sn')
      .execute();
  }

  /** A miner's log parts in order. */
  async partsOf(commandId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('log_export_parts')
      .select('data')
      .where('command_id', '=', commandId)
      .orderBy('part')
      .execute();
    return rows.map((r) => r.data);
  }
}
