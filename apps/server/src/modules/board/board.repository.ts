import type { BoardMetric, BoardTheme, BuiltBoardType } from '@fbox/contracts';
import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A board as stored, with the FBOXes it covers that are still in its mine. */
export interface BoardRow {
  id: number;
  area_id: number;
  type: DB['boards']['type'];
  title: string;
  theme: BoardTheme;
  metric: BoardMetric;
  page_seconds: number;
  test_hours: number;
  pass_ratio: number;
  max_chip_temp: number;
  camera_id: number | null;
  kiosk_created_at: number | null;
  created_at: number;
  updated_at: number;
  fbox_ids: number[];
}

/** What a save writes. */
export interface BoardValues {
  type: BuiltBoardType;
  title: string;
  theme: BoardTheme;
  metric: BoardMetric;
  page_seconds: number;
  test_hours: number;
  pass_ratio: number;
  max_chip_temp: number;
  camera_id: number | null;
  fbox_ids: number[];
}

/** Kysely queries for the boards of one mine and the figures of a data board. */
export class BoardRepository {
  constructor(private readonly db: Kysely<DB>) {}

  /** The mine's boards, oldest first; or only the one `id` names. */
  async list(areaId: number, id?: number): Promise<BoardRow[]> {
    const boards = await this.db
      .selectFrom('boards')
      .select([
        'id',
        'area_id',
        'type',
        'title',
        'theme',
        'metric',
        'page_seconds',
        'test_hours',
        'pass_ratio',
        'max_chip_temp',
        'camera_id',
        'kiosk_created_at',
        'created_at',
        'updated_at',
      ])
      .where('area_id', '=', areaId)
      .$if(id !== undefined, (qb) => qb.where('id', '=', id!))
      .orderBy('id')
      .execute();
    if (boards.length === 0) return [];
    // Only FBOXes still in the board's mine: one moved to another mine leaves its boards.
    const covered = await this.db
      .selectFrom('board_fboxes as b')
      .innerJoin('fboxes as f', 'f.id', 'b.fbox_id')
      .select(['b.board_id', 'b.fbox_id'])
      .where(
        'b.board_id',
        'in',
        boards.map((b) => b.id),
      )
      .where('f.area_id', '=', areaId)
      .orderBy('b.fbox_id')
      .execute();
    return boards.map((b) => ({
      ...b,
      kiosk_created_at: b.kiosk_created_at === null ? null : Number(b.kiosk_created_at),
      created_at: Number(b.created_at),
      updated_at: Number(b.updated_at),
      fbox_ids: covered.filter((c) => c.board_id === b.id).map((c) => c.fbox_id),
    }));
  }

  async count(areaId: number): Promise<number> {
    const row = await this.db
      .selectFrom('boards')
      .select(sql<number>`count(*)`.as('n'))
      .where('area_id', '=', areaId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** Whether the camera is one of the mine's (an FBOX of the mine holds it). */
  async cameraOf(areaId: number, cameraId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('cameras')
      .innerJoin('fboxes', 'fboxes.id', 'cameras.fbox_id')
      .select('cameras.id')
      .where('cameras.id', '=', cameraId)
      .where('fboxes.area_id', '=', areaId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A data board's camera tile: the camera, its FBOX's name and its latest snapshot. */
  async cameraTile(areaId: number, cameraId: number) {
    const camera = await this.db
      .selectFrom('cameras')
      .innerJoin('fboxes', 'fboxes.id', 'cameras.fbox_id')
      .select(['cameras.id', 'cameras.name', 'fboxes.name as fbox_name'])
      .where('cameras.id', '=', cameraId)
      .where('fboxes.area_id', '=', areaId)
      .executeTakeFirst();
    if (!camera) return undefined;
    const image = await this.db
      .selectFrom('camera_images')
      .select(['id', 'taken_at'])
      .where('camera_id', '=', cameraId)
      .orderBy('taken_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return { ...camera, image: image ? { id: image.id, taken_at: Number(image.taken_at) } : null };
  }

  /** The JPEG of an image of the camera (undefined when the image is another camera's or gone). */
  async cameraImage(cameraId: number, imageId: number) {
    const row = await this.db
      .selectFrom('camera_images')
      .select(['jpeg', 'taken_at'])
      .where('id', '=', imageId)
      .where('camera_id', '=', cameraId)
      .executeTakeFirst();
    return row && { jpeg: row.jpeg, taken_at: Number(row.taken_at) };
  }

  /** Which of `ids` are FBOXes of the mine. */
  async fboxesOf(areaId: number, ids: readonly number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('fboxes')
      .select('id')
      .where('area_id', '=', areaId)
      .where('id', 'in', ids)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Creates a board (`id` undefined) or rewrites one of the mine; returns its id, or null when none. */
  async save(
    areaId: number,
    id: number | undefined,
    values: BoardValues,
    now: number,
  ): Promise<number | null> {
    return this.db.transaction().execute(async (trx) => {
      let boardId = id;
      if (boardId === undefined) {
        const row = await trx
          .insertInto('boards')
          .values({
            area_id: areaId,
            type: values.type,
            title: values.title,
            theme: values.theme,
            metric: values.metric,
            page_seconds: values.page_seconds,
            test_hours: values.test_hours,
            pass_ratio: values.pass_ratio,
            max_chip_temp: values.max_chip_temp,
            camera_id: values.camera_id,
            created_at: now,
            updated_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        boardId = row.id;
      } else {
        const updated = await trx
          .updateTable('boards')
          .set({
            title: values.title,
            theme: values.theme,
            metric: values.metric,
            page_seconds: values.page_seconds,
            test_hours: values.test_hours,
            pass_ratio: values.pass_ratio,
            max_chip_temp: values.max_chip_temp,
            camera_id: values.camera_id,
            updated_at: now,
          })
          .where('area_id', '=', areaId)
          .where('id', '=', boardId)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return null;
        await trx.deleteFrom('board_fboxes').where('board_id', '=', boardId).execute();
      }
      if (values.fbox_ids.length > 0)
        await trx
          .insertInto('board_fboxes')
          .values(values.fbox_ids.map((fbox_id) => ({ board_id: boardId!, fbox_id })))
          .execute();
      return boardId;
    });
  }

  /** Sets (a hash) or clears (null) a board's kiosk token; false when the mine has no such board. */
  async setKiosk(areaId: number, id: number, hash: string | null, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('boards')
      .set({ kiosk_token_hash: hash, kiosk_created_at: hash === null ? null : now })
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The board a kiosk token's hash opens, if any. */
  byKioskHash(hash: string) {
    return this.db
      .selectFrom('boards')
      .select(['id', 'area_id'])
      .where('kiosk_token_hash', '=', hash)
      .executeTakeFirst();
  }

  async delete(areaId: number, id: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('boards')
      .where('area_id', '=', areaId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Miners of the boxes by online state, and the theoretical hashrate of the online ones (TH/s). */
  minerCounts(areaId: number, fboxIds: readonly number[]) {
    return this.db
      .selectFrom('miner_state')
      .select([
        'online',
        sql<number>`count(*)`.as('n'),
        sql<number>`sum(case when hashrate_theoretical > 0 then hashrate_theoretical else 0 end)`.as(
          'theoretical',
        ),
      ])
      .where('area_id', '=', areaId)
      .where('fbox_id', 'in', fboxIds)
      .groupBy('online')
      .execute();
  }

  /** The tanks of the boxes, by box and position. */
  tanksOf(fboxIds: readonly number[]) {
    return this.db
      .selectFrom('tanks')
      .select(['id', 'fbox_id', 'no', 'name'])
      .where('fbox_id', 'in', fboxIds)
      .orderBy('fbox_id')
      .orderBy('no')
      .execute();
  }

  /** The miners of the boxes with their place and last readings, by box, tank position and slot. */
  minersOf(areaId: number, fboxIds: readonly number[]) {
    return this.db
      .selectFrom('miner_state as m')
      .leftJoin('tanks as t', 't.id', 'm.tank_id')
      .select([
        'm.miner_id as id',
        'm.fbox_id',
        't.no as tank_no',
        'm.outlet as slot',
        'm.sn',
        'm.worker',
        'm.ip',
        'm.model',
        'm.online',
        'm.fault',
        'm.chip_max_temp',
        'm.hashrate_realtime as hashrate',
        'm.hashrate_theoretical as theoretical',
        'm.power_w',
      ])
      .where('m.area_id', '=', areaId)
      .where('m.fbox_id', 'in', fboxIds)
      .orderBy('m.fbox_id')
      .orderBy('t.no')
      .orderBy('m.outlet')
      .orderBy('m.miner_id')
      .execute();
  }

  /** The time zone of the mine's owner (`UTC+8`): the day a board's revenue counts in. */
  async ownerTimeZone(areaId: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('areas as a')
      .innerJoin('users as u', 'u.id', 'a.owner_id')
      .select('u.time_zone')
      .where('a.id', '=', areaId)
      .executeTakeFirst();
    return row?.time_zone ?? undefined;
  }

  /** Open alerts of the boxes and their tanks and miners, by level. */
  openAlertsByLevel(areaId: number, fboxIds: readonly number[]) {
    return this.db
      .selectFrom('alerts')
      .select(['level', sql<number>`count(*)`.as('n')])
      .where('area_id', '=', areaId)
      .where('fbox_id', 'in', fboxIds)
      .where('ended_at', 'is', null)
      .groupBy('level')
      .execute();
  }
}
