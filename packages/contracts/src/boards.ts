import { z } from 'zod';
import { listField } from './accounts.js';
import { AreaIdBodySchema, AreaScopeSchema } from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { IdSchema, intRange, numericWithDefault, requiredText, rule } from './rules.js';

/**
 * Boards (spec §2 `/board/boardList` and the full-screen pages): the wall displays of a mine's
 * control room. Each board has a type (its full-screen page), a title, the FBOXes it covers (none
 * listed: every FBOX of the mine, present and future) and display options.
 */
export const boardLimits = { titleMax: 64, fboxesMax: 500, perMine: 100 } as const;

/** Every board type of the spec, by its full-screen route (`/<type>`). */
export const boardTypes = [
  'minerBigScreen',
  'minerBoard',
  'minerBoardTest',
  'tankBoard',
  'dataBoard',
  'dataBoardNew',
] as const;
export type BoardType = (typeof boardTypes)[number];

/**
 * The types whose full-screen page is built: only these can be created, so no board opens onto a
 * page that does not exist. The others follow in later releases.
 */
export const builtBoardTypes = [
  'dataBoard',
  'minerBoard',
  'minerBigScreen',
] as const satisfies readonly BoardType[];
export type BuiltBoardType = (typeof builtBoardTypes)[number];

/** Colour schemes of a board: dark by default (a control room's wall). */
export const boardThemes = ['dark', 'light'] as const;
export type BoardTheme = (typeof boardThemes)[number];

/**
 * What a miner board colours its cells by: online/offline/fault, chip temperature, realtime
 * hashrate as a share of theoretical, or power.
 */
export const boardMetrics = ['status', 'chip_temp', 'hashrate_ratio', 'power'] as const;
export type BoardMetric = (typeof boardMetrics)[number];

/** Seconds a miner board shows each page of FBOXes when they do not all fit. */
export const boardPageSeconds = { min: 5, max: 300, default: 20 } as const;

export const BoardSchema = z.object({
  id: z.number().int(),
  area_id: z.number().int(),
  type: z.enum(boardTypes),
  title: z.string(),
  /** The FBOXes covered; empty: the whole mine. */
  fbox_ids: z.array(z.number().int()),
  theme: z.enum(boardThemes),
  /** Miner boards: what colours the cells. */
  metric: z.enum(boardMetrics),
  /** Miner boards: seconds per page of FBOXes. */
  page_seconds: z.number().int(),
  /** When its kiosk link was made; null: it has none. */
  kiosk_created_at: z.number().nullable(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Board = z.infer<typeof BoardSchema>;

/** FBOX ids as `listField` reads a list (`[1,2]`, `"[1,2]"`, `"1,2"`); empty or missing: the whole mine. */
const BoardFboxIdsSchema = z.preprocess(
  (value) => (value === undefined || value === null ? [] : listField(value)),
  z
    .array(IdSchema, { error: rule('rule.invalid') })
    .max(boardLimits.fboxesMax, { error: rule('rule.maxItems', { max: boardLimits.fboxesMax }) }),
);

/** Creates a board, or edits the one named by `id` (its type stays). */
export const BoardSaveBodySchema = AreaScopeSchema.extend({
  id: z.preprocess((v) => (v === '' || v === null ? undefined : v), IdSchema.optional()),
  type: z.enum(builtBoardTypes, { error: rule('rule.boardType') }),
  title: requiredText(boardLimits.titleMax),
  fbox_ids: BoardFboxIdsSchema,
  theme: z.preprocess(
    (v) => (v === '' || v === null || v === undefined ? 'dark' : v),
    z.enum(boardThemes, { error: rule('rule.invalid') }),
  ),
  metric: z.preprocess(
    (v) => (v === '' || v === null || v === undefined ? 'status' : v),
    z.enum(boardMetrics, { error: rule('rule.invalid') }),
  ),
  page_seconds: numericWithDefault(
    intRange(boardPageSeconds.min, boardPageSeconds.max),
    boardPageSeconds.default,
  ),
});
export type BoardSaveBody = z.infer<typeof BoardSaveBodySchema>;

const count = z.number().int();
const onlineOffline = z.object({ online: count, offline: count });
/** An hour's average, or null when nothing was reported that hour (a gap in the chart). */
const reading = z.number().nullable();

/**
 * What a data board shows, for the FBOXes it covers: devices online, hashrate and its last 24 hours,
 * power, today's energy and the open alerts by level. All from the live state and the rollups.
 */
export const DataBoardSchema = z.object({
  board: BoardSchema,
  /** The FBOXes covered (names, for the legend), in name order. */
  fboxes: z.array(z.object({ id: count, name: z.string(), online: z.boolean() })),
  fbox: onlineOffline,
  miner: onlineOffline,
  /** Online miners ÷ all miners covered, 0–1; null without miners. */
  online_rate: z.number().nullable(),
  /** Realtime hashrate of the online FBOXes, TH/s. */
  hashrate: z.number(),
  /** Theoretical hashrate of the online miners, TH/s (0 when none reports it). */
  theoretical: z.number(),
  power_kw: z.number(),
  today_energy_kwh: z.number(),
  /** Open alerts of the covered devices by level (1 critical, 2 major, 3 minor). */
  alerts: z.object({ 1: count, 2: count, 3: count }),
  /** The last 24 h in hourly buckets, summed over the covered FBOXes. */
  series: z.object({
    bucket_ms: count,
    points: z.array(z.object({ ts: z.number(), hashrate: reading, power_kw: reading })),
  }),
  /** When the figures were read (server time, epoch ms). */
  at: z.number(),
});
export type DataBoard = z.infer<typeof DataBoardSchema>;

/**
 * What a miner board shows (miner big screen and miner board): every miner of the covered FBOXes in
 * its place on the site map, FBOX → tank → slot, with the readings its cell can be coloured by.
 * Readings are the last telemetry's; -999 is "no data" (a grey cell).
 */
export const MinerBoardSchema = z.object({
  board: BoardSchema,
  /** The covered FBOXes in name order, each with its tanks by position. */
  fboxes: z.array(
    z.object({
      id: count,
      name: z.string(),
      online: z.boolean(),
      tanks: z.array(z.object({ id: count, no: count, name: z.string() })),
    }),
  ),
  /** Miners by FBOX, tank position (null: not in a tank) and slot (PDU outlet; null: none). */
  miners: z.array(
    z.object({
      id: count,
      fbox_id: count,
      tank_no: count.nullable(),
      slot: count.nullable(),
      sn: z.string(),
      worker: z.string(),
      ip: z.string(),
      model: z.string(),
      online: z.boolean(),
      /** A fault code ('' when healthy). */
      fault: z.string(),
      chip_max_temp: z.number(),
      hashrate: z.number(),
      theoretical: z.number(),
      power_w: z.number(),
    }),
  ),
  at: z.number(),
});
export type MinerBoard = z.infer<typeof MinerBoardSchema>;

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
} as const;
