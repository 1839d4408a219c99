import { z } from 'zod';
import { BoardSchema } from './board-model.js';
import { revenueCoins, revenueFiats, revenueSources } from './revenue.js';

/**
 * What each full-screen board shows (the answers of `fbox.board/data`, `miners`, `tanks`, `test`
 * and their kiosk variants): a board's figures, read again as its devices report.
 */

const count = z.number().int();
const onlineOffline = z.object({ online: count, offline: count });
/** An hour's average, or null when nothing was reported that hour (a gap in the chart). */
const reading = z.number().nullable();

/** One local day's revenue of the mine: where its coin comes from, the coin and its fiat value. */
const BoardRevenueDaySchema = z.object({
  /** `YYYY-MM-DD` in the mine owner's zone. */
  day: z.string(),
  /** The pools' credits, an estimate from the miners' hashrate, or nothing. */
  source: z.enum(revenueSources),
  coin: z.number().nullable(),
  fiat: z.number().nullable(),
});

/**
 * The mine's revenue today and yesterday (the Revenue screen's figures for those days, in the
 * mine owner's time zone): the whole mine's, as pools credit mines, not FBOXes.
 */
export const BoardRevenueSchema = z.object({
  coin: z.enum(revenueCoins),
  fiat: z.enum(revenueFiats),
  time_zone: z.string(),
  today: BoardRevenueDaySchema,
  yesterday: BoardRevenueDaySchema,
});
export type BoardRevenue = z.infer<typeof BoardRevenueSchema>;

/**
 * What a data board (and the new data board) shows, for the FBOXes it covers: devices online,
 * hashrate and its last 24 hours, power, today's energy, the open alerts by level, and the mine's
 * revenue where it has any. All from the live state and the rollups.
 */
export const DataBoardSchema = z.object({
  board: BoardSchema,
  /** The FBOXes covered, in name order, with their realtime hashrate (TH/s; 0 while offline). */
  fboxes: z.array(z.object({ id: count, name: z.string(), online: z.boolean(), hashrate: z.number() })),
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
  /** Absent when the mine has neither revenue settings nor pool credits for those days. */
  revenue: BoardRevenueSchema.optional(),
  /**
   * The camera tile (the board's camera): its latest snapshot (null: none kept), read by the
   * captured-image call, or on a kiosk link by `kiosk_camera_image`. Absent without a camera.
   */
  camera: z
    .object({
      id: count,
      name: z.string(),
      fbox_name: z.string(),
      image: z.object({ id: count, taken_at: z.number() }).nullable(),
    })
    .optional(),
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

/** A commissioning verdict: the miner passed, failed a criterion, or reported nothing in the window. */
export const testVerdicts = ['pass', 'fail', 'no_data'] as const;
export type TestVerdict = (typeof testVerdicts)[number];
/** What a failing miner failed: its average hashrate, its hottest chip, or both. */
export const testCriteria = ['hashrate', 'temperature'] as const;
export type TestCriterion = (typeof testCriteria)[number];

/**
 * What a miner commissioning board shows: every miner of the covered FBOXes in its place on the
 * site map (FBOX → tank → slot) with its test over the board's window, from the hourly rollups:
 * average hashrate while reporting ÷ theoretical, hottest chip, share of the window reported, and
 * the verdict against the board's pass ratio and chip limit.
 */
export const TestBoardSchema = z.object({
  board: BoardSchema,
  /** The window judged: from the start of the first of the `test_hours` clock hours until `to`. */
  window: z.object({ from: z.number(), to: z.number() }),
  counts: z.object({
    pass: count,
    fail: count,
    no_data: count,
    /** Failing miners by criterion (one miner may fail both). */
    hashrate: count,
    temperature: count,
  }),
  fboxes: MinerBoardSchema.shape.fboxes,
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
      /** Online now (the test is about the window). */
      online: z.boolean(),
      /** Average hashrate while it reported, TH/s; null: it did not report. */
      hashrate: z.number().nullable(),
      /** Its theoretical hashrate, TH/s; null: unknown. */
      theoretical: z.number().nullable(),
      /** `hashrate` ÷ `theoretical`, %; null when either is unknown. */
      ratio: z.number().nullable(),
      /** Hottest chip in the window, °C; null: no reading. */
      chip_max_temp: z.number().nullable(),
      /** Share of the window (since the miner was added) it reported online, 0–1. */
      reported: z.number(),
      verdict: z.enum(testVerdicts),
      failed: z.array(z.enum(testCriteria)),
    }),
  ),
  at: z.number(),
});
export type TestBoard = z.infer<typeof TestBoardSchema>;

/** An enabled alert rule's threshold for a tank reading: the level it raises and where it trips. */
const TankLimitSchema = z.object({ level: count, threshold: z.number() });

/** A fan's or the oil pump's drive output (0.01 Hz, -999 no data) and its load in % (null: no data). */
const TankDriveSchema = z.object({ value: z.number(), percent: z.number().nullable() });

/**
 * What a tank board shows: every tank of the covered FBOXes with its last readings (-999: no
 * data), set against the thresholds of the mine's enabled tank alert rules, and the tank alerts
 * open now (a pump or fan rule has no threshold: its open alert is what marks the drive).
 */
export const TankBoardSchema = z.object({
  board: BoardSchema,
  /**
   * Thresholds of the enabled rules per reading, most severe level first: oil temperatures trip
   * above theirs, the liquid level below. Empty: no rule watches that reading.
   */
  limits: z.object({
    oil_in_temp: z.array(TankLimitSchema),
    oil_out_temp: z.array(TankLimitSchema),
    liquid_level: z.array(TankLimitSchema),
  }),
  /** Whether an enabled rule watches the oil pump and the fans (state rules: auto mode, drive at 0). */
  watched: z.object({ pump: z.boolean(), fans: z.boolean() }),
  /** The covered FBOXes in name order, each with its tanks by position. */
  fboxes: z.array(
    z.object({
      id: count,
      name: z.string(),
      online: z.boolean(),
      tanks: z.array(
        z.object({
          id: count,
          no: count,
          name: z.string(),
          online: z.boolean(),
          oil_in_temp: z.number(),
          oil_out_temp: z.number(),
          liquid_level: z.number(),
          oil_pump: TankDriveSchema,
          fans: z.array(TankDriveSchema),
          control_mode: z.enum(['auto', 'manual']),
          short_circuit: z.boolean(),
          /** Its open alerts (metric and level), most severe first. */
          alerts: z.array(z.object({ metric: z.string(), level: count })),
        }),
      ),
    }),
  ),
  at: z.number(),
});
export type TankBoard = z.infer<typeof TankBoardSchema>;
