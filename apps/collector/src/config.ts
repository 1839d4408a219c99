import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { DEFAULT_BUFFER_BYTES } from './buffer/disk-buffer.js';
import { type IpRange, parseIpRange } from './ip-range.js';

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
    /** The CGMiner API port on these hosts (default `protocols.cgminer.port`, 4028). */
    port: port.optional(),
  })
  .strict();

const CloudSchema = z
  .object({
    /** The broker: `mqtt://host:1883`, `mqtts://host:8883`, `ws://…`. */
    mqtt_url: z.string().regex(/^(mqtts?|wss?):\/\/\S+$/, 'not an MQTT URL (mqtt://host:port)'),
    /** The FBOX this collector reports as (its detail page shows it). */
    device_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, '1–64 of A–Z a–z 0–9 _ -'),
    /** The FBOX's MQTT account (`gw-<deviceId>`) and password, from the same page. */
    username: z.string().min(1).max(256).optional(),
    password: z.string().min(1).max(256).optional(),
    /** Shown in the cloud's client key records (default: this machine's host name). */
    computer_name: z.string().min(1).max(128).optional(),
  })
  .strict();

const CgminerSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Default API port of scanned hosts. */
    port: port.default(4028),
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
    /**
     * Per-protocol settings. This version reads `cgminer`; sections for protocols still to come
     * (`whatsminer`, `antminer_web`, `snmp`) are accepted and ignored, so a config can be written ahead.
     */
    protocols: z
      .object({ cgminer: CgminerSchema.default({ enabled: true, port: 4028 }) })
      .catchall(z.unknown())
      .default({ cgminer: { enabled: true, port: 4028 } }),
    log_level: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  })
  .strict();

export type CollectorConfig = z.infer<typeof ConfigSchema>;
export type CollectorConfigInput = z.input<typeof ConfigSchema>;

/** One configured scan entry, parsed. */
export interface ScanTarget {
  range: IpRange;
  port: number;
}

export const scanTargets = (config: CollectorConfig): ScanTarget[] =>
  config.scan.map((entry) => ({
    range: parseIpRange(entry.range) as IpRange,
    port: entry.port ?? config.protocols.cgminer.port,
  }));

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
