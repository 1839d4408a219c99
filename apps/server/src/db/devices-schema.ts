import type { ColumnType, Generated, SelectType } from 'kysely';

/** Row types of the device tables (migration 0002). Readings are -999 when the device sent none. */
export type FboxKind = 'air' | 'immersion' | 'hydro';

export interface FboxesTable {
  id: Generated<number>;
  area_id: number;
  name: string;
  number: string;
  kind: FboxKind;
  ip_range: string;
  voltage_min: Generated<number>;
  voltage_max: Generated<number>;
  /** The `<deviceId>` of its MQTT topics. */
  device_id: string;
  mqtt_username: string;
  /** Sealed (lib/secret-box): opened for MQTT logins and the FBOX detail of masters (spec §3). */
  mqtt_password: string;
  reporting_interval_s: Generated<number>;
  /** JSON text: temperature/humidity thresholds, delay switch and other box settings. */
  settings: Generated<string>;
  created_at: number;
  updated_at: number;
}

export interface FboxCollectorsTable {
  fbox_id: number;
  /** 1 or 2. */
  no: number;
  mac: string;
  account: string;
  /** Sealed (lib/secret-box); '' when none is stored. Write-only: the API says only whether set. */
  password: string;
}

export interface FboxMetersTable {
  fbox_id: number;
  /** 1 or 2. */
  no: number;
  meter_number: string;
  sensor_ratio: number;
  /** Energy the meter reported at its last reading reset; shown energy = reported − offset. */
  energy_offset_kwh: number;
  reset_at: number | null;
}

export interface FboxStateTable {
  fbox_id: number;
  area_id: number;
  /** 1 online, 0 offline (status topic, last will, or silence for 3 reporting intervals). */
  online: Generated<number>;
  last_seen_at: number | null;
  /** `seq` of the message the current state came from (-1 before the first). */
  last_seq: Generated<number>;
  /** `ts` of that message: a message stamped earlier adds history but leaves the state alone. */
  last_ts: Generated<number>;
  temperature: Generated<number>;
  humidity: Generated<number>;
  voltage_a: Generated<number>;
  voltage_b: Generated<number>;
  voltage_c: Generated<number>;
  power_kw: Generated<number>;
  meter1_energy_kwh: Generated<number>;
  meter1_power_kw: Generated<number>;
  meter2_energy_kwh: Generated<number>;
  meter2_power_kw: Generated<number>;
  /** 'on' | 'off' | '' (not an immersion box). */
  immersion_status: Generated<string>;
  immersion_percent: Generated<number>;
  water_in_temp: Generated<number>;
  water_out_temp: Generated<number>;
  flow_rate: Generated<number>;
  valve_opening: Generated<number>;
  /** JSON text: `[{no, status, speed}]`. */
  pumps: Generated<string>;
  public_ip: Generated<string>;
  /** Sum of the miners' realtime hashrate in the last telemetry, TH/s. */
  hashrate_total: Generated<number>;
  /** Meter 1 + 2 energy at the first telemetry of UTC day `energy_day`; today's energy = now − this. */
  energy_day_start_kwh: Generated<number>;
  /** UTC day number (epoch ms / 86,400,000) that energy_day_start_kwh belongs to. */
  energy_day: Generated<number>;
  miner_online: Generated<number>;
  miner_offline: Generated<number>;
  updated_at: number;
}

export interface TanksTable {
  id: Generated<number>;
  area_id: number;
  fbox_id: number;
  /** Position in its FBOX, from 1 (telemetry's `tanks[].no`). */
  no: number;
  name: string;
  work_number: string;
  created_at: number;
  updated_at: number;
}

export interface TankStateTable {
  tank_id: number;
  area_id: number;
  fbox_id: number;
  online: Generated<number>;
  oil_in_temp: Generated<number>;
  oil_out_temp: Generated<number>;
  liquid_level: Generated<number>;
  /** JSON text: number[]. */
  fans: Generated<string>;
  oil_pump_efficiency: Generated<number>;
  water_in_temp: Generated<number>;
  water_speed: Generated<number>;
  short_circuit: Generated<number>;
  energy_saving: Generated<number>;
  control_mode: Generated<string>;
  /** JSON text: number[] (oil temperature probes, °C). */
  main_temperatures: Generated<string>;
  updated_at: number;
}

export interface MinersTable {
  id: Generated<number>;
  area_id: number;
  fbox_id: number;
  tank_id: number | null;
  sn: string;
  created_at: number;
}

/**
 * `miner_state`, the view of a miner's whole state (`miner_info` joined with `miner_readings`):
 * read only, so a write to it does not compile.
 */
export type MinerStateTable = ViewOf<MinerInfoTable & Omit<MinerReadingsTable, 'miner_id'>>;
type ViewOf<T> = { [K in keyof T]: ColumnType<SelectType<T[K]>, never, never> };

/** A miner's state but its readings (`0042`): written when a setting changes. */
export interface MinerInfoTable {
  miner_id: number;
  area_id: number;
  fbox_id: number;
  tank_id: number | null;
  sn: string;
  worker: Generated<string>;
  model: Generated<string>;
  brand: Generated<string>;
  pool: Generated<string>;
  pool_address: Generated<string>;
  ip: Generated<string>;
  firmware: Generated<string>;
  outlet: number | null;
  online: Generated<number>;
  mode: Generated<string>;
  fault: Generated<string>;
  hashrate_theoretical: Generated<number>;
  hashrate_24h: Generated<number>;
}

/** A miner's latest readings (`0042`): written by every sample. */
export interface MinerReadingsTable {
  miner_id: number;
  chip_avg_temp: Generated<number>;
  chip_max_temp: Generated<number>;
  hashrate_realtime: Generated<number>;
  hashrate_avg: Generated<number>;
  power_w: Generated<number>;
  uptime_s: Generated<number>;
  updated_at: number;
}

export interface MinerSamplesTable {
  miner_id: number;
  ts: number;
  hashrate: number;
  power_w: number;
  chip_max_temp: number;
  online: number;
}

export interface FboxSamplesTable {
  fbox_id: number;
  ts: number;
  power_kw: number;
  temperature: number;
  humidity: number;
  hashrate_total: number;
  /** Meter 1 + 2 energy, kWh. */
  energy_kwh: number;
  /** `seq` of the telemetry message; with `ts` it identifies the message (null before 0012). */
  seq: number | null;
}

export interface TankSamplesTable {
  tank_id: number;
  ts: number;
  oil_in_temp: number;
  oil_out_temp: number;
  liquid_level: number;
}

type Stats<K extends string> = { [P in K as `${P}_avg` | `${P}_min` | `${P}_max`]: number };

export type MinerRollupTable = { miner_id: number; bucket_ts: number; samples: number } & Stats<
  'hashrate' | 'power_w' | 'chip_max_temp'
>;
export type FboxRollupTable = { fbox_id: number; bucket_ts: number; samples: number } & Stats<
  'power_kw' | 'temperature' | 'humidity' | 'hashrate_total'
>;
export type TankRollupTable = { tank_id: number; bucket_ts: number; samples: number } & Stats<
  'oil_in_temp' | 'oil_out_temp' | 'liquid_level'
>;

export interface CommandsTable {
  /** 16 random bytes as hex; also the `id` of the MQTT command message. */
  id: string;
  area_id: number;
  fbox_id: number;
  miner_id: number | null;
  tank_id: number | null;
  kind: string;
  /** JSON text of the command target. */
  target: string;
  /** JSON text of the command parameters. */
  params: string;
  status: string;
  error: string | null;
  batch_id: string | null;
  created_by: number | null;
  created_at: number;
  sent_at: number | null;
  acked_at: number | null;
  timeout_at: number;
}

/** One row per periodic job: the process holding its lease runs it. */
export interface JobsTable {
  name: string;
  claimed_by: string | null;
  lease_until: number;
  last_run_at: number | null;
  next_run_at: number;
}

export interface DevicesDB {
  fboxes: FboxesTable;
  fbox_collectors: FboxCollectorsTable;
  fbox_meters: FboxMetersTable;
  fbox_state: FboxStateTable;
  tanks: TanksTable;
  tank_state: TankStateTable;
  miners: MinersTable;
  /** A view: `miner_info` joined with `miner_readings`. Read it; write the two tables. */
  miner_state: MinerStateTable;
  miner_info: MinerInfoTable;
  miner_readings: MinerReadingsTable;
  miner_samples: MinerSamplesTable;
  fbox_samples: FboxSamplesTable;
  tank_samples: TankSamplesTable;
  miner_samples_1m: MinerRollupTable;
  miner_samples_1h: MinerRollupTable;
  fbox_samples_1m: FboxRollupTable;
  fbox_samples_1h: FboxRollupTable;
  tank_samples_1m: TankRollupTable;
  tank_samples_1h: TankRollupTable;
  commands: CommandsTable;
  jobs: JobsTable;
}
