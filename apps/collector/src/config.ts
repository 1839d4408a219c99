import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DEFAULT_BUFFER_BYTES } from './buffer/disk-buffer.js';
import { type IpRange, parseIpRange } from './ip-range.js';
import { OutletMapSchema, PduConfigSchema, refineOutletMap } from './pdu/config.js';

/**
 * `collector.yaml`: where the cloud is, what to scan, how often and how hard. Every key is checked
 * before anything starts; a wrong one stops the collector with one line naming it.
 */

const port = z.number().int().min(1).max(65_535);
const seconds = (min: number, max: number) => z.number().min(min).max(max);
const millis = (min: number, max: number) => z.number().int().min(min).max(max);

const ScanEntrySchema = z
  .object({
    /** `10.0.0.0/24`, `10.0.0.10-10.0.0.50` or `10.0.0.7`. */
    range: z.string().superRefine((text, ctx) => {
      const parsed = parseIpRange(text);
      if (typeof parsed === 'string') ctx.addIssue({ code: 'custom', message: parsed });
    }),
    /** One port to probe on these hosts, with every enabled protocol (the form before `ports`). */
    port: port.optional(),
    /** The ports to probe on these hosts, each with every enabled protocol (default: each protocol's own port). */
    ports: z.array(port).min(1, 'name at least one port, or leave ports out').max(16).optional(),
  })
  .strict()
  .refine((entry) => entry.port === undefined || entry.ports === undefined, {
    message: 'give port or ports, not both',
    path: ['ports'],
  });

/** The cloud's `[A-Za-z0-9_-]` ids (device ids, agent client ids). */
const topicId = /^[A-Za-z0-9_-]+$/;

/**
 * Where the cloud is and who this collector is there: an existing FBOX's `device_id` (with its MQTT
 * `username` and `password`), or the mine's `agent_key` and `area_id`, with which the collector
 * registers itself as a new FBOX on first start (docs/collector.md, "Register with the Agent Key").
 * Exactly one of the two. After parsing, `device_id` is '' in the Agent Key form until `register.ts`
 * fills in the account it obtained.
 */
const CloudSchema = z
  .object({
    /** The broker: `mqtt://host:1883`, `mqtts://host:8883`, `ws://…`. */
    mqtt_url: z.string().regex(/^(mqtts?|wss?):\/\/\S+$/, 'not an MQTT URL (mqtt://host:port)'),
    /** The FBOX this collector reports as (its detail page shows it). */
    device_id: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/, '1–64 of A–Z a–z 0–9 _ -')
      .optional(),
    /** The FBOX's MQTT account (`gw-<deviceId>`) and password, from the same page. */
    username: z.string().min(1).max(256).optional(),
    password: z.string().min(1).max(256).optional(),
    /** The mine's Agent Key (Manage Mines), to register as a new FBOX instead of naming one. */
    agent_key: z
      .string()
      .regex(/^[0-9A-Fa-f]{32}$/, '32 hex digits (the mine’s Agent Key, Manage Mines)')
      .optional(),
    /** The mine's id (Manage Mines), with `agent_key`. */
    area_id: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
    /** The name of the FBOX registered (1–50 characters; default: this machine's host name). */
    fbox_name: z.string().trim().min(1).max(50).optional(),
    /** This agent's part of its client id `agent-<area_id>-<agent_id>` (default: from the host name). */
    agent_id: z.string().regex(topicId, 'only A–Z a–z 0–9 _ -').optional(),
    /** Shown in the cloud's client key records (default: this machine's host name). */
    computer_name: z.string().min(1).max(128).optional(),
  })
  .strict()
  .superRefine((cloud, ctx) => {
    const issue = (key: string, message: string) => ctx.addIssue({ code: 'custom', path: [key], message });
    if (cloud.agent_key === undefined) {
      if (cloud.device_id === undefined && cloud.area_id !== undefined)
        issue('agent_key', 'missing (area_id names the mine of an Agent Key)');
      else if (cloud.device_id === undefined) issue('device_id', 'missing');
      for (const key of ['area_id', 'fbox_name', 'agent_id'] as const)
        if (cloud[key] !== undefined) issue(key, 'only with agent_key (registering with the Agent Key)');
      return;
    }
    if (cloud.device_id !== undefined)
      issue('agent_key', 'give device_id (an existing FBOX) or agent_key (to register one), not both');
    for (const key of ['username', 'password'] as const)
      if (cloud[key] !== undefined) issue(key, 'not with agent_key: registering obtains the FBOX’s account');
    if (cloud.area_id === undefined) issue('area_id', 'missing (the mine of the Agent Key)');
    else if (cloud.agent_id !== undefined && `agent-${cloud.area_id}-${cloud.agent_id}`.length > 64)
      issue('agent_id', `too long: agent-${cloud.area_id}-<agent_id> may have 64 characters`);
  })
  .transform(({ device_id, ...cloud }) => ({ ...cloud, device_id: device_id ?? '' }));

const CgminerSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** API port probed on scanned hosts. */
    port: port.default(4028),
  })
  .strict();

const WhatsminerSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** API v2 port probed on scanned hosts (the CGMiner API's; a Whatsminer is asked first). */
    port: port.default(4028),
    /** The miners' `admin` password, for write commands (MicroBT's default `admin`). */
    password: z.string().min(1).max(64).default('admin'),
  })
  .strict();

const WhatsminerV3Schema = z
  .object({
    enabled: z.boolean().default(true),
    /** API v3 port probed on scanned hosts (firmware from 2024 on). */
    port: port.default(4433),
    /** The write account: `super`, or `user1`…`user3`. */
    account: z.string().min(1).max(32).default('super'),
    password: z.string().min(1).max(64).default('admin'),
  })
  .strict();

const AntminerWebSchema = z
  .object({
    /** Antminers read over the CGMiner API take mode, pool and reboot commands over their web CGI. */
    enabled: z.boolean().default(true),
    /** Web interface port (never scanned: an Antminer is found on its API port). */
    port: port.default(80),
    /** Web login (stock firmware: `root` / `root`). */
    username: z.string().min(1).max(64).default('root'),
    password: z.string().min(1).max(64).default('root'),
    /** A read (the login's round trips included), ms. */
    timeout_ms: millis(100, 120_000).default(10_000),
    /** A write or reboot, ms: the firmware restarts its miner before it answers. */
    write_timeout_ms: millis(1000, 300_000).default(60_000),
  })
  .strict();

export const ConfigSchema = z
  .object({
    cloud: CloudSchema,
    scan: z.array(ScanEntrySchema).min(1, 'name at least one range to scan'),
    /** Seconds between two reads of every miner, and between two telemetry messages (5–60, like an FBOX). */
    poll_interval_s: seconds(5, 60).default(30),
    /** Seconds between two scans of the ranges (the first runs at start). */
    scan_interval_s: seconds(10, 86_400).default(600),
    concurrency: z
      .object({
        /** Miners read at once. */
        poll: z.number().int().min(1).max(10_000).default(200),
        /** Addresses probed at once while scanning. */
        scan: z.number().int().min(1).max(10_000).default(256),
      })
      .strict()
      .default({ poll: 200, scan: 256 }),
    timeouts: z
      .object({
        /** TCP connect, ms. */
        connect_ms: millis(50, 60_000).default(2000),
        /** A whole request (connect, send, read to the end), ms. */
        request_ms: millis(100, 120_000).default(5000),
        /** A scan probe, ms (short: most addresses of a range answer nothing). */
        scan_ms: millis(50, 60_000).default(1500),
      })
      .strict()
      .default({ connect_ms: 2000, request_ms: 5000, scan_ms: 1500 }),
    /** Where the collector remembers the miners it found (`miners.json`) and buffers telemetry (`outbox/`). */
    state_dir: z.string().min(1).default('./collector-state'),
    /** Telemetry kept on disk while the cloud is unreachable (docs/collector.md, "Buffering"). */
    buffer: z
      .object({
        /** Bytes of waiting messages kept (1 MiB–64 GiB); when full the oldest are dropped. */
        max_bytes: z
          .number()
          .int()
          .min(1024 ** 2)
          .max(64 * 1024 ** 3)
          .default(DEFAULT_BUFFER_BYTES),
      })
      .strict()
      .default({ max_bytes: DEFAULT_BUFFER_BYTES }),
    /** Per-protocol settings (docs/collector.md, "Protocols and models covered"); an unknown one is an error. */
    protocols: z
      .object({
        cgminer: CgminerSchema.prefault({}),
        whatsminer: WhatsminerSchema.prefault({}),
        whatsminer_v3: WhatsminerV3Schema.prefault({}),
        antminer_web: AntminerWebSchema.prefault({}),
      })
      .strict()
      .prefault({}),
    /** Switched PDUs driven over SNMP (src/pdu/README.md). */
    pdus: PduConfigSchema.default([]),
    /** Miner serial or IP → FBOX outlet: telemetry's `outlet`, and what the cloud's PDU tasks switch. */
    outlet_map: OutletMapSchema.default({}),
    log_level: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  })
  .strict()
  .superRefine(refineOutletMap);

export type CollectorConfig = z.infer<typeof ConfigSchema>;
export type CollectorConfigInput = z.input<typeof ConfigSchema>;

/** One configured scan entry, parsed. */
export interface ScanTarget {
  range: IpRange;
  /** The ports probed on each host, and which protocols are tried there, in order. */
  probes: ScanProbe[];
  /** The entry names its ports: each is probed, not only until the host answered on one. */
  named: boolean;
}

export interface ScanProbe {
  port: number;
  /** Protocol names (`MinerProtocol.name`): every enabled one on a port the entry names, else those whose port it is. */
  protocols: ProtocolName[];
}

/** The protocols a scan tries, in the order it tries them on one address (docs/collector.md, "Discovery"). */
export const probeOrder = ['whatsminer', 'cgminer', 'whatsminer-v3'] as const;
export type ProtocolName = (typeof probeOrder)[number];

/** Each enabled protocol that scans, with its port, in probe order. */
export const scanningProtocols = (config: CollectorConfig): { name: ProtocolName; port: number }[] => {
  const { cgminer, whatsminer, whatsminer_v3 } = config.protocols;
  const sections = { whatsminer, cgminer, 'whatsminer-v3': whatsminer_v3 };
  return probeOrder.flatMap((name) => (sections[name].enabled ? [{ name, port: sections[name].port }] : []));
};

export const scanTargets = (config: CollectorConfig): ScanTarget[] => {
  const enabled = scanningProtocols(config);
  const all = enabled.map((p) => p.name);
  const ownPorts = [...new Set(enabled.map((p) => p.port))];
  return config.scan.map((entry) => {
    const named = entry.ports ?? (entry.port !== undefined ? [entry.port] : null);
    const probes = named
      ? [...new Set(named)].map((port) => ({ port, protocols: all }))
      : ownPorts.map((port) => ({
          port,
          protocols: enabled.filter((p) => p.port === port).map((p) => p.name),
        }));
    return { range: parseIpRange(entry.range) as IpRange, probes, named: named !== null };
  });
};

/** A config that cannot be used: `message` is the one line to print. */
export class ConfigError extends Error {}

/** `['scan', 0, 'range']` → `scan[0].range`. */
const keyPath = (path: readonly PropertyKey[]): string =>
  path.reduce<string>(
    (out, part) =>
      typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${String(part)}` : String(part),
    '',
  );

/** Validates a config object; throws `ConfigError` with `<source>: <key>: <problem>`. */
export const parseConfig = (raw: unknown, source = 'collector.yaml'): CollectorConfig => {
  const result = ConfigSchema.safeParse(raw ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  let path = [...issue.path];
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    path = [...path, issue.keys[0]!];
    message = 'unknown key';
  } else if (issue.code === 'invalid_type' && /received undefined/.test(message)) {
    message = 'missing';
  }
  throw new ConfigError(`${source}: ${keyPath(path) || '(top level)'}: ${message}`);
};

/** Reads and validates a YAML config file. */
export const loadConfig = (file: string): CollectorConfig => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${file}: cannot read: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    const first = (error as Error).message.split('\n')[0];
    throw new ConfigError(`${basename(file)}: not valid YAML: ${first}`);
  }
  return parseConfig(raw, basename(file));
};
