import { z } from 'zod';

/**
 * The device protocol (DESIGN §7): one gateway per FBOX talks MQTT under `fbox/<deviceId>/`.
 * Units: temperatures °C, humidity %, voltage V, power kW (miners: W), energy kWh, hashrate TH/s,
 * uptime seconds. -999 means "no reading" for any number.
 */
export const PROTOCOL_VERSION = 1;

/** C0 control characters and DEL: none belongs in one-line device text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const controlCharacters = /[\u0000-\u001f\u007f]/g;

const stripControls = (text: string) => text.replace(controlCharacters, '');

/**
 * Text a device reports (SN, worker, pool, fault …), with control characters removed: PostgreSQL
 * cannot store U+0000, and a message carrying one was acknowledged and then dropped (issue 10). The
 * rest of the text is kept, so the message is stored; its length is checked after.
 *
 * One check does both: as zod's `overwrite` and `max`, two checks on each of a miner's nine texts
 * took about 40 % of the telemetry check's time (a 500-miner message: 4.3–4.6 → 2.4–3.0 µs a sample).
 */
export const deviceText = (max: number) =>
  z.string().check((ctx) => {
    ctx.value = stripControls(ctx.value);
    if (ctx.value.length > max)
      ctx.issues.push({ code: 'too_big', origin: 'string', maximum: max, inclusive: true, input: ctx.value });
  });

export const topics = {
  telemetry: (deviceId: string) => `fbox/${deviceId}/telemetry`,
  status: (deviceId: string) => `fbox/${deviceId}/status`,
  command: (deviceId: string) => `fbox/${deviceId}/cmd`,
  ack: (deviceId: string) => `fbox/${deviceId}/cmd/ack`,
  /** Retained `HelloMessage`: who the gateway is (computer name, version). */
  hello: (deviceId: string) => `fbox/${deviceId}/hello`,
  /** `LogPart`s answering a `miner.logs` command (gateway → cloud). */
  logs: (deviceId: string) => `fbox/${deviceId}/logs`,
} as const;

/** `fbox/<deviceId>/<kind>` → its parts, or null for any other topic. */
export const parseTopic = (
  topic: string,
): { deviceId: string; kind: 'telemetry' | 'status' | 'cmd' | 'ack' | 'logs' } | null => {
  const match = /^fbox\/([A-Za-z0-9_-]{1,64})\/(telemetry|status|cmd|cmd\/ack|logs)$/.exec(topic);
  if (!match) return null;
  const kind = match[2] === 'cmd/ack' ? 'ack' : (match[2] as 'telemetry' | 'status' | 'cmd' | 'logs');
  return { deviceId: match[1]!, kind };
};

const reading = z.number().finite();
const onOff = z.enum(['on', 'off']);

export const MeterReadingSchema = z.object({
  no: z.union([z.literal(1), z.literal(2)]),
  /** Accumulated energy since the last meter reset, kWh. */
  energy_kwh: reading,
  /** Instant power, kW. */
  power_kw: reading,
});

export const BoxTelemetrySchema = z.object({
  temperature: reading,
  humidity: reading,
  /** Phase voltages A, B, C. */
  voltage: z.tuple([reading, reading, reading]),
  power_kw: reading,
  meters: z.array(MeterReadingSchema).max(2),
  immersion: z.object({ status: onOff, percent: reading }).optional(),
  /** Hydro boxes: water loop. */
  water_in_temp: reading.optional(),
  water_out_temp: reading.optional(),
  flow_rate: reading.optional(),
  valve_opening: reading.optional(),
  /** Water pumps; `speed` in drive units like tank fans (0.01 Hz: 5000 = 50 Hz). */
  pumps: z
    .array(z.object({ no: z.number().int().min(1).max(16), status: onOff, speed: reading }))
    .max(16)
    .optional(),
  public_ip: deviceText(64).optional(),
});
export type BoxTelemetry = z.infer<typeof BoxTelemetrySchema>;

export const TankTelemetrySchema = z.object({
  /** Position of the tank in its FBOX, from 1. */
  no: z.number().int().min(1).max(64),
  oil_in_temp: reading,
  oil_out_temp: reading,
  liquid_level: reading,
  /** Fan drive outputs in 0.01 Hz (5000 = 50 Hz); the web shows them as a percent of 5000 or 6000. */
  fans: z.array(reading).max(16),
  /** Oil pump drive output in 0.01 Hz like the fans (5000 = 50 Hz). */
  oil_pump_efficiency: reading,
  water_in_temp: reading,
  water_speed: reading,
  short_circuit: z.boolean(),
  energy_saving: z.boolean(),
  control_mode: z.enum(['auto', 'manual']),
  /** Oil temperature probes of the tank. */
  main_temperatures: z.array(reading).max(16),
});
export type TankTelemetry = z.infer<typeof TankTelemetrySchema>;

export const MinerTelemetrySchema = z.object({
  sn: deviceText(64).min(1),
  ip: deviceText(64),
  worker: deviceText(128),
  model: deviceText(64),
  brand: deviceText(64),
  pool: deviceText(128),
  pool_address: deviceText(256),
  firmware: deviceText(64),
  /** Tank the miner sits in (its `no`), or null for air-cooled positions. */
  tank_no: z.number().int().min(1).max(64).nullable(),
  /** PDU outlet feeding the miner. */
  outlet: z.number().int().min(1).max(10_000).nullable(),
  online: z.boolean(),
  mode: z.enum(['high', 'low']),
  chip_avg_temp: reading,
  chip_max_temp: reading,
  hashrate_theoretical: reading,
  hashrate_realtime: reading,
  hashrate_avg: reading,
  power_w: reading,
  /** Empty when healthy, else a fault code such as `fan`, `chain`, `temp_high`. */
  fault: deviceText(64),
  uptime_s: reading,
});
export type MinerTelemetry = z.infer<typeof MinerTelemetrySchema>;

/**
 * How far a telemetry `ts` may stray from the server's clock. A message outside the window is refused
 * and counted, never stored: a future stamp would pin "latest" state, a very old one would land behind
 * rollups already made and outside the de-duplication horizon (raw box samples, kept ≥ 7 days).
 */
export const telemetryClock = {
  /** Ahead of the server's clock (gateway clock skew). */
  maxAheadMs: 5 * 60_000,
  /** Behind it (a gateway forwarding what it buffered while offline). */
  maxBehindMs: 72 * 3_600_000,
} as const;

/**
 * `fbox/<deviceId>/telemetry`, QoS 1. A message is identified by `(deviceId, seq, ts)`: a redelivery
 * repeats both and is applied once; a gateway whose counter restarted sends new timestamps, so its
 * messages are new (see docs/mqtt.md, "De-duplication").
 */
export const TelemetryMessageSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  seq: z.number().int().nonnegative(),
  ts: z.number().int().positive(),
  box: BoxTelemetrySchema,
  tanks: z.array(TankTelemetrySchema).max(64),
  miners: z.array(MinerTelemetrySchema).max(5000),
});
export type TelemetryMessage = z.infer<typeof TelemetryMessageSchema>;

/** `fbox/<deviceId>/status`, retained, also the gateway's last will. */
export const StatusPayloadSchema = z.enum(['online', 'offline']);

export const commandKinds = [
  'miner.restart',
  'miner.mode',
  'miner.pool',
  'miner.resave_account',
  'miner.overclock',
  'tank.controller_switch',
  'tank.oil_setting',
  'pdu.outlet',
  'meter.reset',
  'fbox.config',
  'miner.logs',
] as const;
export type CommandKind = (typeof commandKinds)[number];

/** What a command acts on: one miner (by SN), one tank (by its no), one PDU outlet, one meter, or the box. */
export const CommandTargetSchema = z.object({
  sn: z.string().max(64).optional(),
  tank_no: z.number().int().min(1).max(64).optional(),
  outlet: z.number().int().min(1).max(10_000).optional(),
  meter_no: z.union([z.literal(1), z.literal(2)]).optional(),
});

/** `fbox/<deviceId>/cmd` (cloud → gateway, QoS 1). */
export const CommandMessageSchema = z.object({
  id: z.string().min(1).max(64),
  kind: z.enum(commandKinds),
  target: CommandTargetSchema,
  params: z.record(z.string(), z.unknown()),
});
export type CommandMessage = z.infer<typeof CommandMessageSchema>;

/** `fbox/<deviceId>/cmd/ack` (gateway → cloud): done, or refused/failed with a reason. */
export const CommandAckSchema = z.object({
  id: z.string().min(1).max(64),
  ok: z.boolean(),
  error: deviceText(500).optional(),
});
export type CommandAck = z.infer<typeof CommandAckSchema>;

/**
 * One part of a miner's log (`fbox/<deviceId>/logs`, gateway → cloud, QoS 1), answering the
 * `miner.logs` command `id`: parts numbered from 0, the final one with `last: true`, each at most
 * `logPartLimits.partBytes` of UTF-8 text (16 KiB, so a part stays under the smallest packet limit a
 * broker may set, 64 KiB, even with every character escaped); then the command's ack. Control
 * characters other than newline and tab are removed. A part may arrive twice.
 */
const utf8 = new TextEncoder();
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters removed
const logControls = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
export const logPartLimits = { partBytes: 16 * 1024, partsMax: 256 } as const;
export const LogPartSchema = z.object({
  id: z.string().min(1).max(64),
  part: z
    .number()
    .int()
    .min(0)
    .max(logPartLimits.partsMax - 1),
  last: z.boolean(),
  data: z
    .string()
    .max(logPartLimits.partBytes)
    .overwrite((text) => text.replace(logControls, ''))
    .refine((text) => utf8.encode(text).length <= logPartLimits.partBytes, {
      message: `at most ${logPartLimits.partBytes} bytes`,
    }),
});
export type LogPart = z.infer<typeof LogPartSchema>;

export const commandStatuses = ['pending', 'sent', 'acknowledged', 'failed', 'timed_out'] as const;
export type CommandStatus = (typeof commandStatuses)[number];

/** `fbox/<deviceId>/hello` and `agent/<areaId>/<clientId>/hello`, retained: who the client is. */
export const HelloMessageSchema = z.object({
  computer_name: z.string().overwrite(stripControls).trim().max(128),
  version: z.string().overwrite(stripControls).trim().max(64).optional(),
});
export type HelloMessage = z.infer<typeof HelloMessageSchema>;

/**
 * Site agents (collectors) log in with the MQTT username `agent:<areaId>` and the mine's Agent Key as
 * password, with a client id of `[A-Za-z0-9_-]{1,64}`, and may publish only under their own
 * `agent/<areaId>/<clientId>/`: `hello` and `status` (`online` / `offline`, retained, the last will).
 */
export const agentTopics = {
  hello: (areaId: number, clientId: string) => `agent/${areaId}/${clientId}/hello`,
  status: (areaId: number, clientId: string) => `agent/${areaId}/${clientId}/status`,
} as const;

export const agentUsername = (areaId: number): string => `agent:${areaId}`;

/**
 * An agent's client id starts with this, so it is its mine's own: no other tenant's credentials can
 * claim it (a broker closes the older session of a client id that connects again).
 */
export const agentClientIdPrefix = (areaId: number): string => `agent-${areaId}-`;

/** `agent:<areaId>` → the area id, or null for any other username. */
export const parseAgentUsername = (username: string): number | null => {
  const match = /^agent:([1-9]\d{0,15})$/.exec(username);
  return match ? Number(match[1]) : null;
};

export const AgentClientIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** A topic a client announces itself on (hello, agent status), or null. */
export type ClientTopic =
  | { kind: 'gateway'; deviceId: string; what: 'hello' }
  | { kind: 'agent'; areaId: number; clientId: string; what: 'hello' | 'status' };

export const parseClientTopic = (topic: string): ClientTopic | null => {
  const gateway = /^fbox\/([A-Za-z0-9_-]{1,64})\/hello$/.exec(topic);
  if (gateway) return { kind: 'gateway', deviceId: gateway[1]!, what: 'hello' };
  const agent = /^agent\/([1-9]\d{0,15})\/([A-Za-z0-9_-]{1,64})\/(hello|status)$/.exec(topic);
  if (!agent) return null;
  return {
    kind: 'agent',
    areaId: Number(agent[1]),
    clientId: agent[2]!,
    what: agent[3] as 'hello' | 'status',
  };
};
