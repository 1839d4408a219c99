import type { ColumnType, Generated, Selectable } from 'kysely';

/** A running total: always read, optional on insert (the column defaults to 0). */
type Total = ColumnType<number, number | undefined, number>;

/** Row types of the meter energy tables (migration 0020). Times are UTC epoch ms, energy kWh. */

/**
 * Energy of one meter in one UTC hour: the increases of the readings stamped in that hour over the
 * reading before each (docs/statistics.md "Energy from meter readings"), times the sensor ratio.
 */
export interface MeterEnergyHourlyTable {
  fbox_id: number;
  /** 1 or 2. */
  no: number;
  /** Start of the hour. */
  hour_ts: number;
  energy_kwh: number;
  /** Readings lower than the one before (meter reset, rollover or replacement). */
  resets: number;
  /** Readings counted in the hour. */
  readings: number;
  first_ts: number;
  /** The meter's own register (as reported, before the ratio). */
  first_reading: number;
  last_ts: number;
  last_reading: number;
  /** The ratio applied to the hour's last reading. */
  sensor_ratio: number;
  /**
   * Running totals of the meter's energy, resets and readings to the end of this hour (migration
   * 0026). Written with every row; 0 when left out (tests then run `recomputeMeterTotals`).
   */
  cum_energy_kwh: Total;
  cum_resets: Total;
  cum_readings: Total;
}

/** A meter hour as read (every total a number). */
export type MeterHour = Selectable<MeterEnergyHourlyTable>;

/** The last reading counted per meter: the next reading's increase is measured from it. */
export interface MeterReadingStateTable {
  fbox_id: number;
  no: number;
  ts: number;
  energy_kwh: number;
  /** The meter's running totals so far (its latest hour's). */
  cum_energy_kwh: number;
  cum_resets: number;
  cum_readings: number;
}

declare module '../../db/schema.js' {
  interface DB {
    meter_energy_hourly: MeterEnergyHourlyTable;
    meter_reading_state: MeterReadingStateTable;
  }
}

/** A meter reading entered by a person (migration 0025) and the energy it moved. */
export interface MeterCorrectionsTable {
  id: Generated<number>;
  fbox_id: number;
  no: number;
  reading_at: number;
  /** The register as the meter showed it (before the ratio). */
  reading_kwh: number;
  reason: string;
  user_id: number | null;
  created_at: number;
  /** Energy counted into the reading's hour (ratio applied). */
  energy_kwh: number;
  /** The hour of the next reported reading and how its energy changed; null when none came yet. */
  next_hour_ts: number | null;
  next_delta_kwh: number;
}

declare module '../../db/schema.js' {
  interface DB {
    meter_corrections: MeterCorrectionsTable;
  }
}

/** A mine's electricity price per kWh from `valid_from` until the next row's (migration 0022). */
export interface ElectricityPricesTable {
  area_id: number;
  valid_from: number;
  price: number;
  created_by: number | null;
  created_at: number;
}

declare module '../../db/schema.js' {
  interface DB {
    electricity_prices: ElectricityPricesTable;
  }
}

/**
 * One FBOX's settled 24-hour window (migrations 0033, 0036): its meters' energy, resets and counted
 * readings, and from its hourly rollups the highest power, the hashes of its hours with a hashrate
 * and the metered energy of those hours (null where none).
 */
export interface FboxPowerDaysTable {
  fbox_id: number;
  /** Start of the window (a zone's midnight), epoch ms. */
  day_ts: number;
  m1_kwh: number;
  m1_resets: number;
  m1_readings: number;
  m2_kwh: number;
  m2_resets: number;
  m2_readings: number;
  peak_kw: number | null;
  hashes_th: number | null;
  hash_kwh: number | null;
  /**
   * The window's row of the statistic's table as JSON text without its cost and closing brace
   * (migration 0036): written when the window is summed, read as it is.
   */
  row_head: string;
}

/**
 * A set of FBOXes' table rows of one settled day (migration 0036): the rows' JSON text joined (''
 * when no meter counted), costed at `price`, and their sums.
 */
export interface FboxPowerDaySetsTable {
  /** The set: its size and a digest of its sorted ids. */
  boxes: string;
  day_ts: number;
  price: number;
  rows_json: string;
  rows: number;
  energy_kwh: number;
  cost: number;
  resets: number;
  hashes_th: number;
  hash_kwh: number;
}

/** A set of FBOXes' summed hourly power in one settled hour (migration 0033); null: no reading. */
export interface FboxLoadHoursTable {
  /** The set: its size and a digest of its sorted ids. */
  boxes: string;
  hour_ts: number;
  avg_kw: number | null;
  max_kw: number | null;
}

declare module '../../db/schema.js' {
  interface DB {
    fbox_power_days: FboxPowerDaysTable;
    fbox_power_day_sets: FboxPowerDaySetsTable;
    fbox_load_hours: FboxLoadHoursTable;
  }
}
