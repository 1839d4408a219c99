import type { MinerTelemetry, TankTelemetry, TelemetryMessage } from '@fbox/contracts';

/**
 * Column lists of the bulk writes; the row builders below return values in this order. A miner's
 * state is two rows (`0042`): its readings, which every sample writes, and the rest, written when
 * a setting changes.
 */
export const minerInfoColumns = [
  'miner_id',
  'area_id',
  'fbox_id',
  'tank_id',
  'sn',
  'worker',
  'model',
  'brand',
  'pool',
  'pool_address',
  'ip',
  'firmware',
  'outlet',
  'online',
  'mode',
  'fault',
  'hashrate_theoretical',
  'hashrate_24h',
] as const;

export const minerReadingColumns = [
  'miner_id',
  'chip_avg_temp',
  'chip_max_temp',
  'hashrate_realtime',
  'hashrate_avg',
  'power_w',
  'uptime_s',
  'updated_at',
] as const;

/**
 * The columns of `miner_info` a sample sets on a stored row: where the miner sits, what it is, how
 * it is set up, whether it is online. Area, box and SN never change for a miner row; hashrate_24h
 * is written on insert (a first estimate) and then only by the hourly rollup.
 */
export const minerSettings: readonly string[] = minerInfoColumns.filter(
  (c) => !['miner_id', 'area_id', 'fbox_id', 'sn', 'hashrate_24h'].includes(c),
);

/**
 * The upserts that write a batch's miner state: the readings of every miner, and its settings
 * only where one differs from what is stored, so a sample whose settings stayed writes neither
 * `miner_info`'s row nor its indexes (on PostgreSQL no new row version either). SQLite also skips
 * the rows whose settings this process last wrote (`TelemetryWriter.settingsWritten`).
 */
export const minerStateWrites = {
  readings: {
    table: 'miner_readings',
    columns: minerReadingColumns,
    conflict: { columns: ['miner_id'], update: minerReadingColumns.slice(1) },
  },
  info: {
    table: 'miner_info',
    columns: minerInfoColumns,
    conflict: { columns: ['miner_id'], update: minerSettings, onlyChanged: true },
  },
} as const;

export const minerSampleColumns = [
  'miner_id',
  'ts',
  'hashrate',
  'power_w',
  'chip_max_temp',
  'online',
] as const;

export const tankStateColumns = [
  'tank_id',
  'area_id',
  'fbox_id',
  'online',
  'oil_in_temp',
  'oil_out_temp',
  'liquid_level',
  'fans',
  'oil_pump_efficiency',
  'water_in_temp',
  'water_speed',
  'short_circuit',
  'energy_saving',
  'control_mode',
  'main_temperatures',
  'updated_at',
] as const;
export const tankStateUpdate = tankStateColumns.filter((c) => c !== 'tank_id');

export const tankSampleColumns = ['tank_id', 'ts', 'oil_in_temp', 'oil_out_temp', 'liquid_level'] as const;

export const fboxSampleColumns = [
  'fbox_id',
  'ts',
  'seq',
  'power_kw',
  'temperature',
  'humidity',
  'hashrate_total',
  'energy_kwh',
] as const;

export interface Placement {
  minerId: number;
  areaId: number;
  fboxId: number;
  tankId: number | null;
}

export const minerInfoRow = (m: MinerTelemetry, p: Placement): unknown[] => [
  p.minerId,
  p.areaId,
  p.fboxId,
  p.tankId,
  m.sn,
  m.worker,
  m.model,
  m.brand,
  m.pool,
  m.pool_address,
  m.ip,
  m.firmware,
  m.outlet,
  m.online ? 1 : 0,
  m.mode,
  m.fault,
  m.hashrate_theoretical,
  m.hashrate_avg,
];

export const minerReadingsRow = (m: MinerTelemetry, minerId: number, now: number): unknown[] => [
  minerId,
  m.chip_avg_temp,
  m.chip_max_temp,
  m.hashrate_realtime,
  m.hashrate_avg,
  m.power_w,
  m.uptime_s,
  now,
];

const settingIndexes = minerSettings.map((c) => (minerInfoColumns as readonly string[]).indexOf(c));

/**
 * A fingerprint of a `miner_info` row's settings (two 32-bit FNV-1a hashes of their text, folded
 * into one safe integer): equal settings give equal fingerprints, and two different settings the
 * same one about once in 2^52.
 */
export const minerSettingsKey = (row: readonly unknown[]): number => {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (const i of settingIndexes) {
    const text = `${row[i] === null ? '\u0000' : String(row[i])}\u0001`;
    for (let k = 0; k < text.length; k++) {
      const c = text.charCodeAt(k);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
    }
  }
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
};

export const minerSampleRow = (m: MinerTelemetry, minerId: number, ts: number): unknown[] => [
  minerId,
  ts,
  m.hashrate_realtime,
  m.power_w,
  m.chip_max_temp,
  m.online ? 1 : 0,
];

export const tankStateRow = (
  t: TankTelemetry,
  ids: { tankId: number; areaId: number; fboxId: number },
  now: number,
): unknown[] => [
  ids.tankId,
  ids.areaId,
  ids.fboxId,
  1,
  t.oil_in_temp,
  t.oil_out_temp,
  t.liquid_level,
  JSON.stringify(t.fans),
  t.oil_pump_efficiency,
  t.water_in_temp,
  t.water_speed,
  t.short_circuit ? 1 : 0,
  t.energy_saving ? 1 : 0,
  t.control_mode,
  JSON.stringify(t.main_temperatures),
  now,
];

export const tankSampleRow = (t: TankTelemetry, tankId: number, ts: number): unknown[] => [
  tankId,
  ts,
  t.oil_in_temp,
  t.oil_out_temp,
  t.liquid_level,
];

/** Meter 1 + 2 accumulated energy of a message; -999 readings count as 0. */
export const meterEnergy = (msg: TelemetryMessage): number =>
  msg.box.meters.reduce((sum, m) => sum + (m.energy_kwh === -999 ? 0 : m.energy_kwh), 0);

/** Sum of the miners' realtime hashrate, TH/s (offline miners and -999 readings count as 0). */
export const hashrateTotal = (msg: TelemetryMessage): number =>
  msg.miners.reduce((sum, m) => sum + (m.online && m.hashrate_realtime > 0 ? m.hashrate_realtime : 0), 0);

export const dayOf = (ms: number): number => Math.floor(ms / 86_400_000);

/** fbox_state columns a telemetry message sets (besides seq, online and timestamps). */
export const boxStateValues = (msg: TelemetryMessage) => {
  const box = msg.box;
  const meter = (no: 1 | 2) => box.meters.find((m) => m.no === no);
  const online = msg.miners.filter((m) => m.online).length;
  return {
    temperature: box.temperature,
    humidity: box.humidity,
    voltage_a: box.voltage[0],
    voltage_b: box.voltage[1],
    voltage_c: box.voltage[2],
    power_kw: box.power_kw,
    meter1_energy_kwh: meter(1)?.energy_kwh ?? -999,
    meter1_power_kw: meter(1)?.power_kw ?? -999,
    meter2_energy_kwh: meter(2)?.energy_kwh ?? -999,
    meter2_power_kw: meter(2)?.power_kw ?? -999,
    immersion_status: box.immersion?.status ?? '',
    immersion_percent: box.immersion?.percent ?? -999,
    water_in_temp: box.water_in_temp ?? -999,
    water_out_temp: box.water_out_temp ?? -999,
    flow_rate: box.flow_rate ?? -999,
    valve_opening: box.valve_opening ?? -999,
    pumps: JSON.stringify(box.pumps ?? []),
    public_ip: box.public_ip ?? '',
    hashrate_total: hashrateTotal(msg),
    miner_online: online,
    miner_offline: msg.miners.length - online,
  };
};
