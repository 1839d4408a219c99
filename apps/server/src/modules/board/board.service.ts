import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  type Board,
  type BoardSaveBody,
  type BoardType,
  boardLimits,
  boardTestLimits,
  Code,
  type DataBoard,
  type MinerBoard,
  type TankBoard,
  type TestBoard,
} from '@fbox/contracts';

/** A kiosk token as stored: its SHA-256, hex (the token itself has 256 random bits). */
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a save takes: the commissioning test's options may be left out (their defaults). */
type BoardSaveInput = Omit<BoardSaveBody, 'test_hours' | 'pass_ratio' | 'max_chip_temp'> &
  Partial<Pick<BoardSaveBody, 'test_hours' | 'pass_ratio' | 'max_chip_temp'>>;

/** The types whose page shows a data board's figures (the data board and the new data board). */
const dataBoardTypes: readonly BoardType[] = ['dataBoard', 'dataBoardNew'];

/** The types whose page is the site map of miners. */
const minerBoardTypes: readonly BoardType[] = ['minerBigScreen', 'minerBoard'];

import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../lib/api-error.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound, requireManage } from '../device-access.js';
import { FboxRepository } from '../fbox/fbox.repository.js';
import type { FileDownload } from '../handler.js';
import { last24h, liveTotals } from '../total/total.service.js';
import { BoardRepository } from './board.repository.js';
import { boardRevenue } from './board-revenue.service.js';
import { tankBoardOf } from './board-tank.service.js';
import { testBoardOf } from './board-test.service.js';

type BoardDeps = Pick<FastifyInstance, 'db' | 'clock' | 'areas' | 'revenue'>;

/**
 * Boards of a mine (issue 15): who sees the mine reads its boards and what they show; masters and
 * administrators create, edit and delete them. A board covers the FBOXes it lists that are still in
 * its mine, or the whole mine when it lists none.
 */
export class BoardService {
  constructor(private readonly deps: BoardDeps) {}

  private repo() {
    return new BoardRepository(this.deps.db);
  }

  async list(user: AreaCaller, areaId: number) {
    await this.deps.areas.requireAccess(user, areaId);
    const items: Board[] = await this.repo().list(areaId);
    return { items, total: items.length, page: 1, limit: boardLimits.perMine };
  }

  /**
   * Creates a board or edits one (its type stays). An FBOX of another mine among the covered ones
   * answers "not found", as any foreign id does, and nothing is saved.
   */
  async save(user: AreaCaller, body: BoardSaveInput): Promise<Board> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const repo = this.repo();
    const fboxIds = [...new Set(body.fbox_ids)];
    if ((await repo.fboxesOf(body.area_id, fboxIds)).length !== fboxIds.length) notFound();
    // A camera of another mine answers "not found" like any foreign id; only data boards keep one.
    const cameraId = dataBoardTypes.includes(body.type) ? (body.camera_id ?? null) : null;
    if (cameraId !== null && !(await repo.cameraOf(body.area_id, cameraId))) notFound();
    if (body.id === undefined && (await repo.count(body.area_id)) >= boardLimits.perMine)
      throw new ApiError(Code.CONFLICT, 'api.boardLimit');
    const values = {
      type: body.type,
      title: body.title,
      theme: body.theme,
      metric: body.metric,
      page_seconds: body.page_seconds,
      test_hours: body.test_hours ?? boardTestLimits.hours.default,
      pass_ratio: body.pass_ratio ?? boardTestLimits.passRatio.default,
      max_chip_temp: body.max_chip_temp ?? boardTestLimits.maxChipTemp.default,
      camera_id: cameraId,
      fbox_ids: fboxIds,
    };
    const id = (await repo.save(body.area_id, body.id, values, this.deps.clock())) ?? notFound();
    const [board] = await repo.list(body.area_id, id);
    return board ?? notFound();
  }

  async delete(user: AreaCaller, areaId: number, id: number): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    if (!(await this.repo().delete(areaId, id))) notFound();
  }

  /** A board of the mine of one of `types` (else "not found") and the FBOXes it covers, in name order. */
  private async boardAndBoxes(areaId: number, id: number, types: readonly BoardType[]) {
    const [board] = await this.repo().list(areaId, id);
    if (!board || !types.includes(board.type)) return notFound();
    const covered = new Set(board.fbox_ids);
    const boxes = (await new FboxRepository(this.deps.db).listWithState(areaId))
      .filter((b) => covered.size === 0 || covered.has(b.id))
      .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    return { board: board as Board, boxes };
  }

  /**
   * Makes the board's kiosk link: a random token (256 bits) answered once; only its SHA-256 is
   * stored. A new link replaces the old one, which stops working at once.
   */
  async createKiosk(user: AreaCaller, areaId: number, id: number) {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    const token = randomBytes(32).toString('base64url');
    if (!(await this.repo().setKiosk(areaId, id, hashOf(token), this.deps.clock()))) notFound();
    const [board] = await this.repo().list(areaId, id);
    return { board: board as Board, token };
  }

  /** Ends the board's kiosk link at once. */
  async revokeKiosk(user: AreaCaller, areaId: number, id: number): Promise<Board> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    if (!(await this.repo().setKiosk(areaId, id, null, this.deps.clock()))) notFound();
    const [board] = await this.repo().list(areaId, id);
    return board ?? notFound();
  }

  /** The mine and board a kiosk token opens ("not found" for any other token). */
  async kioskBoard(token: string): Promise<{ areaId: number; id: number }> {
    const board = await this.repo().byKioskHash(hashOf(token));
    return board ? { areaId: board.area_id, id: board.id } : notFound();
  }

  async kioskDataBoard(token: string): Promise<DataBoard> {
    const { areaId, id } = await this.kioskBoard(token);
    return this.dataBoardOf(areaId, id);
  }

  /** The JPEG of a snapshot of the kiosk board's camera (any other image: "not found"). */
  async kioskCameraImage(token: string, imageId: number): Promise<FileDownload> {
    const { areaId, id } = await this.kioskBoard(token);
    const repo = this.repo();
    const [board] = await repo.list(areaId, id);
    if (!board || board.camera_id === null || !dataBoardTypes.includes(board.type)) return notFound();
    const image = (await repo.cameraImage(board.camera_id, imageId)) ?? notFound();
    return {
      filename: `camera-${board.camera_id}-${image.taken_at}.jpg`,
      contentType: 'image/jpeg',
      body: Readable.from([image.jpeg]),
    };
  }

  async kioskMinerBoard(token: string): Promise<MinerBoard> {
    const { areaId, id } = await this.kioskBoard(token);
    return this.minerBoardOf(areaId, id);
  }

  async kioskTestBoard(token: string): Promise<TestBoard> {
    const { areaId, id } = await this.kioskBoard(token);
    return this.testBoardOf(areaId, id);
  }

  /** Each miner of a commissioning board's FBOXes with its test over the board's window (`TestBoardSchema`). */
  async testBoard(user: AreaCaller, areaId: number, id: number): Promise<TestBoard> {
    await this.deps.areas.requireAccess(user, areaId);
    return this.testBoardOf(areaId, id);
  }

  private async testBoardOf(areaId: number, id: number): Promise<TestBoard> {
    const { board, boxes } = await this.boardAndBoxes(areaId, id, ['minerBoardTest']);
    return testBoardOf(this.deps.db, areaId, board, boxes, this.deps.clock());
  }

  async kioskTankBoard(token: string): Promise<TankBoard> {
    const { areaId, id } = await this.kioskBoard(token);
    return this.tankBoardOf(areaId, id);
  }

  /** Every tank of a tank board's FBOXes with its readings against the alert rules (`TankBoardSchema`). */
  async tankBoard(user: AreaCaller, areaId: number, id: number): Promise<TankBoard> {
    await this.deps.areas.requireAccess(user, areaId);
    return this.tankBoardOf(areaId, id);
  }

  private async tankBoardOf(areaId: number, id: number): Promise<TankBoard> {
    const { board, boxes } = await this.boardAndBoxes(areaId, id, ['tankBoard']);
    return tankBoardOf(this.deps.db, areaId, board, boxes, this.deps.clock());
  }

  /** What a data board shows now, for the FBOXes it covers (see `DataBoardSchema`). */
  async dataBoard(user: AreaCaller, areaId: number, id: number): Promise<DataBoard> {
    await this.deps.areas.requireAccess(user, areaId);
    return this.dataBoardOf(areaId, id);
  }

  private async dataBoardOf(areaId: number, id: number): Promise<DataBoard> {
    const { board, boxes } = await this.boardAndBoxes(areaId, id, dataBoardTypes);
    const repo = this.repo();
    const ids = boxes.map((b) => b.id);
    const now = this.deps.clock();
    const [miners, alerts, series, revenue, camera] = await Promise.all([
      ids.length > 0 ? repo.minerCounts(areaId, ids) : [],
      ids.length > 0 ? repo.openAlertsByLevel(areaId, ids) : [],
      last24h(this.deps.db, ids, now),
      boardRevenue(this.deps.revenue, repo, areaId, now),
      board.camera_id === null ? undefined : repo.cameraTile(areaId, board.camera_id),
    ]);
    const minersOnline = miners.filter((m) => Number(m.online) === 1);
    const online = minersOnline.reduce((sum, m) => sum + Number(m.n), 0);
    const all = miners.reduce((sum, m) => sum + Number(m.n), 0);
    const level = (n: number) => Number(alerts.find((a) => Number(a.level) === n)?.n ?? 0);
    const fboxesOnline = boxes.filter((b) => b.online === 1).length;
    return {
      board,
      fboxes: boxes.map((b) => ({
        id: b.id,
        name: b.name,
        online: b.online === 1,
        hashrate: b.online === 1 ? liveTotals([b], now).hashrate : 0,
      })),
      fbox: { online: fboxesOnline, offline: boxes.length - fboxesOnline },
      miner: { online, offline: all - online },
      online_rate: all > 0 ? Math.round((online / all) * 10_000) / 10_000 : null,
      ...liveTotals(boxes, now),
      theoretical:
        Math.round(minersOnline.reduce((sum, m) => sum + Number(m.theoretical ?? 0), 0) * 1000) / 1000,
      alerts: { 1: level(1), 2: level(2), 3: level(3) },
      series,
      ...(revenue && { revenue }),
      ...(camera && { camera }),
      at: now,
    };
  }

  /** Every miner of a miner board's FBOXes in its place, with its last readings (`MinerBoardSchema`). */
  async minerBoard(user: AreaCaller, areaId: number, id: number): Promise<MinerBoard> {
    await this.deps.areas.requireAccess(user, areaId);
    return this.minerBoardOf(areaId, id);
  }

  private async minerBoardOf(areaId: number, id: number): Promise<MinerBoard> {
    const { board, boxes } = await this.boardAndBoxes(areaId, id, minerBoardTypes);
    const repo = this.repo();
    const ids = boxes.map((b) => b.id);
    const [tanks, miners] =
      ids.length === 0 ? [[], []] : await Promise.all([repo.tanksOf(ids), repo.minersOf(areaId, ids)]);
    return {
      board,
      fboxes: boxes.map((b) => ({
        id: b.id,
        name: b.name,
        online: b.online === 1,
        tanks: tanks
          .filter((t) => t.fbox_id === b.id)
          .map(({ id: tankId, no, name }) => ({ id: tankId, no, name })),
      })),
      miners: miners.map((m) => ({ ...m, online: Number(m.online) === 1 })),
      at: this.deps.clock(),
    };
  }
}
