import { z } from 'zod';
import { BoardSaveBodySchema, BoardSchema } from './board-model.js';
import { DataBoardSchema, MinerBoardSchema, TankBoardSchema, TestBoardSchema } from './board-views.js';
import { AreaIdBodySchema, AreaScopeSchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { IdSchema, rule } from './rules.js';

export * from './board-model.js';
export * from './board-views.js';

/** A kiosk token: 43 url-safe characters (256 random bits). */
export const KioskTokenSchema = z.object({
  token: z
    .string({ error: rule('rule.required') })
    .regex(/^[A-Za-z0-9_-]{43}$/, { error: rule('rule.invalid') }),
});

/** A new kiosk link's token: shown once (only its hash is stored), valid until revoked or replaced. */
export const BoardKioskSchema = z.object({ board: BoardSchema, token: z.string() });

const Nothing = z.null();

/** Boards of a mine (`fbox.board`): list, save, delete, and what each full-screen page shows. */
export const boardEndpoints = {
  boardList: endpoint({
    method: 'GET',
    path: '/index/fbox.board/index',
    permission: 'user',
    query: AreaScopeSchema,
    data: listOf(BoardSchema),
  }),
  boardSave: endpoint({
    method: 'POST',
    path: '/index/fbox.board/save',
    permission: 'manage',
    body: BoardSaveBodySchema,
    data: BoardSchema,
    mutates: true,
    success: 'api.modified',
  }),
  boardDelete: endpoint({
    method: 'POST',
    path: '/index/fbox.board/deleted',
    permission: 'manage',
    body: AreaIdBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
  }),
  dataBoard: endpoint({
    method: 'GET',
    path: '/index/fbox.board/data',
    permission: 'user',
    query: AreaIdBodySchema,
    data: DataBoardSchema,
  }),
  /** Creates the board's kiosk link (a new one replaces the old: the old stops at once). */
  boardKioskCreate: endpoint({
    method: 'POST',
    path: '/index/fbox.board/kiosk_create',
    permission: 'manage',
    body: AreaIdBodySchema,
    data: BoardKioskSchema,
    mutates: true,
    success: 'api.modified',
  }),
  boardKioskRevoke: endpoint({
    method: 'POST',
    path: '/index/fbox.board/kiosk_revoke',
    permission: 'manage',
    body: AreaIdBodySchema,
    data: BoardSchema,
    mutates: true,
    success: 'api.modified',
  }),
  /** A wall TV's read of its one board, by the kiosk token alone (no login): a data board's figures. */
  kioskDataBoard: endpoint({
    method: 'GET',
    path: '/index/fbox.board/kiosk_data',
    permission: 'public',
    query: KioskTokenSchema,
    data: DataBoardSchema,
  }),
  /**
   * The latest snapshot a data board's camera tile shows, by the kiosk token alone: the JPEG of an
   * image of that board's camera (any other image, or a board without a camera → not found).
   */
  kioskCameraImage: endpoint({
    method: 'GET',
    path: '/index/fbox.board/kiosk_camera_image',
    permission: 'public',
    query: KioskTokenSchema.extend({ id: IdSchema }),
    data: z.string(),
    download: true,
  }),
  /** As `kioskDataBoard`, for a miner board. */
  kioskMinerBoard: endpoint({
    method: 'GET',
    path: '/index/fbox.board/kiosk_miners',
    permission: 'public',
    query: KioskTokenSchema,
    data: MinerBoardSchema,
  }),
  minerBoard: endpoint({
    method: 'GET',
    path: '/index/fbox.board/miners',
    permission: 'user',
    query: AreaIdBodySchema,
    data: MinerBoardSchema,
  }),
  /** What a tank board shows: every covered tank's readings against the alert rules' thresholds. */
  tankBoard: endpoint({
    method: 'GET',
    path: '/index/fbox.board/tanks',
    permission: 'user',
    query: AreaIdBodySchema,
    data: TankBoardSchema,
  }),
  /** What a miner commissioning board shows: each covered miner's test over the board's window. */
  testBoard: endpoint({
    method: 'GET',
    path: '/index/fbox.board/test',
    permission: 'user',
    query: AreaIdBodySchema,
    data: TestBoardSchema,
  }),
  /** As `kioskDataBoard`, for a miner commissioning board. */
  kioskTestBoard: endpoint({
    method: 'GET',
    path: '/index/fbox.board/kiosk_test',
    permission: 'public',
    query: KioskTokenSchema,
    data: TestBoardSchema,
  }),
  /** As `kioskDataBoard`, for a tank board. */
  kioskTankBoard: endpoint({
    method: 'GET',
    path: '/index/fbox.board/kiosk_tanks',
    permission: 'public',
    query: KioskTokenSchema,
    data: TankBoardSchema,
  }),
} as const;
