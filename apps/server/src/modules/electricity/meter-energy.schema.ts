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
}

/** The last reading counted per meter: the next reading's increase is measured from it. */
export interface MeterReadingStateTable {
  fbox_id: number;
  no: number;
  ts: number;
  energy_kwh: number;
}

declare module '../../db/schema.js' {
  interface DB {
    meter_energy_hourly: MeterEnergyHourlyTable;
    meter_reading_state: MeterReadingStateTable;
  }
}
