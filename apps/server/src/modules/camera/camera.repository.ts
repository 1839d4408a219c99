import { cameraIntervalMinutes, cameraRetentionDays } from '@fbox/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';

const dayMs = 86_400_000;

/** A camera as stored, with its FBOX's mine. */
export interface CameraRow {
  id: number;
  fbox_id: number;
  area_id: number;
  name: string;
  stream: string;
  next_snapshot_at: number;
  last_snapshot_at: number | null;
  last_error_kind: string | null;
  last_error_detail: string | null;
  last_error_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A camera the snapshot job may try, with its mine's interval. */
export interface DueCamera {
  id: number;
  stream: string;
  next_snapshot_at: number;
  interval_minutes: number;
}

const num = (v: unknown) => Number(v);
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

/** Kysely queries of the cameras, their snapshots and the mines' snapshot settings. */
export class CameraRepository {
  constructor(private readonly db: Kysely<DB>) {}

  private cameras() {
    return this.db
      .selectFrom('cameras as c')
      .innerJoin('fboxes as f', 'f.id', 'c.fbox_id')
      .select([
        'c.id',
        'c.fbox_id',
        'f.area_id',
        'c.name',
        'c.stream',
        'c.next_snapshot_at',
        'c.last_snapshot_at',
        'c.last_error_kind',
        'c.last_error_detail',
        'c.last_error_at',
        'c.created_at',
        'c.updated_at',
      ]);
  }

  private static row(r: Record<string, unknown>): CameraRow {
    return {
      id: num(r.id),
      fbox_id: num(r.fbox_id),
      area_id: num(r.area_id),
      name: String(r.name),
      stream: String(r.stream),
      next_snapshot_at: num(r.next_snapshot_at),
      last_snapshot_at: numOrNull(r.last_snapshot_at),
      last_error_kind: (r.last_error_kind as string | null) ?? null,
      last_error_detail: (r.last_error_detail as string | null) ?? null,
      last_error_at: numOrNull(r.last_error_at),
      created_at: num(r.created_at),
      updated_at: num(r.updated_at),
    };
  }

  /** The cameras of an FBOX of the mine, in name order. */
  async listByFbox(areaId: number, fboxId: number): Promise<CameraRow[]> {
    const rows = await this.cameras()
      .where('f.area_id', '=', areaId)
      .where('c.fbox_id', '=', fboxId)
      .orderBy('c.name')
      .orderBy('c.id')
      .execute();
    return rows.map(CameraRepository.row);
  }

  /** Every camera of the mine's FBOXes, by FBOX and name. */
  async listByArea(areaId: number): Promise<CameraRow[]> {
    const rows = await this.cameras()
      .where('f.area_id', '=', areaId)
      .orderBy('f.name')
      .orderBy('c.name')
      .orderBy('c.id')
      .execute();
    return rows.map(CameraRepository.row);
  }

  /** A camera of an FBOX of the mine; undefined for any other id. */
  async find(areaId: number, id: number): Promise<CameraRow | undefined> {
    const row = await this.cameras()
      .where('f.area_id', '=', areaId)
      .where('c.id', '=', id)
      .executeTakeFirst();
    return row ? CameraRepository.row(row) : undefined;
  }

  async fboxInArea(areaId: number, fboxId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('fboxes')
      .select('id')
      .where('id', '=', fboxId)
      .where('area_id', '=', areaId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async countByFbox(fboxId: number): Promise<number> {
    const row = await this.db
      .selectFrom('cameras')
      .select(sql<number>`count(*)`.as('n'))
      .where('fbox_id', '=', fboxId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(values: { fbox_id: number; name: string; stream: string }, now: number): Promise<number> {
    const row = await this.db
      .insertInto('cameras')
      .values({ ...values, next_snapshot_at: 0, created_at: now, updated_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Edits a camera; a new stream is snapshotted at the next run and forgets the old one's error. */
  async update(
    id: number,
    values: { fbox_id: number; name: string; stream: string },
    streamChanged: boolean,
    now: number,
  ): Promise<void> {
    await this.db
      .updateTable('cameras')
      .set({
        ...values,
        updated_at: now,
        ...(streamChanged && {
          next_snapshot_at: 0,
          last_error_kind: null,
          last_error_detail: null,
          last_error_at: null,
        }),
      })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: number): Promise<void> {
    await this.db.deleteFrom('cameras').where('id', '=', id).execute();
  }

  /** The mine's snapshot settings (the defaults when never saved). */
  async settings(areaId: number): Promise<{ interval_minutes: number; retention_days: number }> {
    const row = await this.db
      .selectFrom('camera_settings')
      .select(['interval_minutes', 'retention_days'])
      .where('area_id', '=', areaId)
      .executeTakeFirst();
    return {
      interval_minutes: row ? Number(row.interval_minutes) : cameraIntervalMinutes.default,
      retention_days: row ? Number(row.retention_days) : cameraRetentionDays.default,
    };
  }

  /** Saves the settings; `onlyIfNew`: writes nothing when the mine has them (true when it wrote). */
  async saveSettings(
    areaId: number,
    values: { interval_minutes: number; retention_days: number },
    now: number,
    onlyIfNew = false,
  ): Promise<boolean> {
    const result = await this.db
      .insertInto('camera_settings')
      .values({ area_id: areaId, ...values, updated_at: now })
      .onConflict((oc) =>
        onlyIfNew
          ? oc.column('area_id').doNothing()
          : oc.column('area_id').doUpdateSet({ ...values, updated_at: now }),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * After the mine's interval was shortened: a camera waiting longer than the new interval since its
   * last snapshot is due then instead (a longer interval applies from the next snapshot).
   */
  async pullForward(areaId: number, intervalMinutes: number): Promise<void> {
    const due = sql<number>`coalesce(last_snapshot_at, 0) + ${intervalMinutes * 60_000}`;
    await this.db
      .updateTable('cameras')
      .set({ next_snapshot_at: due })
      .where('fbox_id', 'in', (eb) => eb.selectFrom('fboxes').select('id').where('area_id', '=', areaId))
      .where('next_snapshot_at', '>', due)
      .execute();
  }

  /** Snapshots of an FBOX's cameras (or one camera's) in [from, to), newest first, one page. */
  async images(filter: {
    areaId: number;
    fboxId: number;
    cameraId: number | undefined;
    from: number | undefined;
    to: number | undefined;
    page: number;
    limit: number;
  }) {
    const base = this.db
      .selectFrom('camera_images as i')
      .innerJoin('cameras as c', 'c.id', 'i.camera_id')
      .innerJoin('fboxes as f', 'f.id', 'c.fbox_id')
      .where('f.area_id', '=', filter.areaId)
      .where('c.fbox_id', '=', filter.fboxId)
      .$if(filter.cameraId !== undefined, (qb) => qb.where('c.id', '=', filter.cameraId!))
      .$if(filter.from !== undefined, (qb) => qb.where('i.taken_at', '>=', filter.from!))
      .$if(filter.to !== undefined, (qb) => qb.where('i.taken_at', '<', filter.to!));
    const [rows, total] = await Promise.all([
      base
        .select(['i.id', 'i.camera_id', 'c.name as camera_name', 'i.taken_at', 'i.bytes'])
        .orderBy('i.taken_at', 'desc')
        .orderBy('i.id', 'desc')
        .limit(filter.limit)
        .offset((filter.page - 1) * filter.limit)
        .execute(),
      base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      items: rows.map((r) => ({
        id: num(r.id),
        camera_id: num(r.camera_id),
        camera_name: r.camera_name,
        taken_at: num(r.taken_at),
        bytes: num(r.bytes),
      })),
      total: Number(total.n),
    };
  }

  /** One snapshot's JPEG, if it belongs to a camera of the mine. */
  async imageJpeg(areaId: number, id: number) {
    const row = await this.db
      .selectFrom('camera_images as i')
      .innerJoin('cameras as c', 'c.id', 'i.camera_id')
      .innerJoin('fboxes as f', 'f.id', 'c.fbox_id')
      .select(['i.id', 'i.camera_id', 'i.taken_at', 'i.jpeg'])
      .where('f.area_id', '=', areaId)
      .where('i.id', '=', id)
      .executeTakeFirst();
    return row ? { ...row, taken_at: num(row.taken_at), jpeg: Buffer.from(row.jpeg) } : undefined;
  }

  /** Cameras due for a snapshot, with their mine's interval (its default when never saved). */
  async due(now: number, limit: number): Promise<DueCamera[]> {
    const rows = await this.db
      .selectFrom('cameras as c')
      .innerJoin('fboxes as f', 'f.id', 'c.fbox_id')
      .leftJoin('camera_settings as s', 's.area_id', 'f.area_id')
      .select([
        'c.id',
        'c.stream',
        'c.next_snapshot_at',
        sql<number>`coalesce(s.interval_minutes, ${cameraIntervalMinutes.default})`.as('interval_minutes'),
      ])
      .where('c.next_snapshot_at', '<=', now)
      .orderBy('c.next_snapshot_at')
      .orderBy('c.id')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      id: num(r.id),
      stream: r.stream,
      next_snapshot_at: num(r.next_snapshot_at),
      interval_minutes: num(r.interval_minutes),
    }));
  }

  /**
   * Claims a due camera until `next`: a conditional update only one process wins, so a camera is
   * tried once per interval whatever the number of processes, ticks or restarts.
   */
  async claim(id: number, seen: number, next: number): Promise<boolean> {
    const result = await this.db
      .updateTable('cameras')
      .set({ next_snapshot_at: next })
      .where('id', '=', id)
      .where('next_snapshot_at', '=', seen)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Stores a snapshot and marks the camera captured (its error cleared), in one transaction. */
  async addImage(cameraId: number, jpeg: Uint8Array, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('camera_images')
        .values({ camera_id: cameraId, taken_at: now, bytes: jpeg.length, jpeg: Buffer.from(jpeg) })
        .execute();
      await trx
        .updateTable('cameras')
        .set({ last_snapshot_at: now, last_error_kind: null, last_error_detail: null, last_error_at: null })
        .where('id', '=', cameraId)
        .execute();
    });
  }

  async setError(cameraId: number, kind: string, detail: string, now: number): Promise<void> {
    await this.db
      .updateTable('cameras')
      .set({ last_error_kind: kind, last_error_detail: detail.slice(0, 300), last_error_at: now })
      .where('id', '=', cameraId)
      .execute();
  }

  /** Deletes the snapshots older than their mine's retention; answers how many. */
  async deleteExpired(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('camera_images')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('camera_images as i')
          .innerJoin('cameras as c', 'c.id', 'i.camera_id')
          .innerJoin('fboxes as f', 'f.id', 'c.fbox_id')
          .leftJoin('camera_settings as s', 's.area_id', 'f.area_id')
          .select('i.id')
          .where(
            sql<boolean>`i.taken_at < ${now} - cast(coalesce(s.retention_days, ${cameraRetentionDays.default}) as bigint) * ${dayMs}`,
          ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The cameras (`app/stream` ones) of the mines named `areaName`: the demo's media server serves them. */
  async streamsOfAreasNamed(areaName: string): Promise<{ name: string; stream: string }[]> {
    return this.db
      .selectFrom('cameras as c')
      .innerJoin('fboxes as f', 'f.id', 'c.fbox_id')
      .innerJoin('areas as a', 'a.id', 'f.area_id')
      .select(['c.name', 'c.stream'])
      .where('a.area_name', '=', areaName)
      .orderBy('c.id')
      .execute();
  }
}
