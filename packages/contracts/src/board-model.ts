import { z } from 'zod';
import { listField } from './accounts.js';
import { AreaScopeSchema } from './devices.js';
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
  'tankBoard',
  'minerBoardTest',
  'dataBoardNew',
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

/**
 * The miner commissioning board's test: the window it judges (the last `hours` clock hours), the
 * share of its theoretical hashrate a miner must average (%), and the hottest chip allowed (°C).
 */
export const boardTestLimits = {
  hours: { min: 1, max: 168, default: 24 },
  passRatio: { min: 50, max: 100, default: 90 },
  maxChipTemp: { min: 50, max: 120, default: 85 },
} as const;

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
  /** Commissioning board: the test window (hours), pass ratio (% of theoretical), hottest chip (°C). */
  test_hours: z.number().int(),
  pass_ratio: z.number().int(),
  max_chip_temp: z.number().int(),
  /** Data boards: the camera whose latest snapshot a tile shows; null: no camera tile. */
  camera_id: z.number().int().nullable(),
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
  test_hours: numericWithDefault(
    intRange(boardTestLimits.hours.min, boardTestLimits.hours.max),
    boardTestLimits.hours.default,
  ),
  pass_ratio: numericWithDefault(
    intRange(boardTestLimits.passRatio.min, boardTestLimits.passRatio.max),
    boardTestLimits.passRatio.default,
  ),
  max_chip_temp: numericWithDefault(
    intRange(boardTestLimits.maxChipTemp.min, boardTestLimits.maxChipTemp.max),
    boardTestLimits.maxChipTemp.default,
  ),
  /** Data boards: a camera of the mine for the camera tile; missing, '' or null: none. */
  camera_id: z.preprocess((v) => (v === '' || v === null ? undefined : v), IdSchema.optional()),
});
export type BoardSaveBody = z.infer<typeof BoardSaveBodySchema>;
