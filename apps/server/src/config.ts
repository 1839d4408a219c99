import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseSecretKey } from './lib/secret-key.js';

/** Default web build location, resolved from this file so it does not depend on the cwd. */
const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** One configuration variable for the README and the error messages. */
export interface ConfigVariable {
  name: string;
  default: string;
  description: string;
}

/** Every environment variable the server reads (the README lists this table). */
export const configVariables: ConfigVariable[] = [
  { name: 'PORT', default: '8080', description: 'HTTP port; 0 picks any free port' },
  { name: 'HOST', default: '0.0.0.0', description: 'HTTP listen address' },
  {
    name: 'MQTT_PORT',
    default: '1883',
    description:
      'Embedded MQTT broker port; 0 picks any free port. When unset and 1883 is taken, a free port is used with a warning',
  },
  {
    name: 'MQTT_MAX_PACKET_BYTES',
    default: '8388608',
    description:
      'Largest MQTT packet the embedded broker accepts from a logged-in client (8 MiB; a 5,000-miner telemetry message is about 2.5 MB); larger ones close the connection unread. Before login: 64 KiB',
  },
  {
    name: 'MQTT_URL',
    default: '(unset)',
    description: 'mqtt:// or mqtts:// external broker; the embedded one is not started',
  },
  {
    name: 'MQTT_SHARE_GROUP',
    default: 'fbox-ingest',
    description:
      'Shared-subscription group on the external broker: every server process of one deployment uses the same',
  },
  {
    name: 'MQTT_CLIENT_ID',
    default: 'fbox-server-<host>-<PORT>',
    description:
      'Client id on the external broker, unique per process and the same across its restarts, so the broker keeps what arrives while it is down (with PORT=0: <host>-p<pid>, which does not survive a restart)',
  },
  {
    name: 'MQTT_SESSION_EXPIRY_SECONDS',
    default: '3600',
    description:
      "How long the external broker keeps a stopped process's session and the messages queued for it; 0 ends it at disconnect",
  },
  { name: 'DATA_DIR', default: './data', description: 'Directory for the SQLite database and other data' },
  {
    name: 'DATABASE_URL',
    default: '(unset)',
    description: 'Unset: SQLite file DATA_DIR/fbox.db; postgres:// or postgresql://: PostgreSQL',
  },
  {
    name: 'INGEST_WRITER_THREAD',
    default: 'auto',
    description:
      "1 writes telemetry on a thread of its own with its own database connection, so the API answers while batches are written; 0 on the server's thread; auto: the thread on SQLite (a synchronous driver), the server's thread on PostgreSQL",
  },
  { name: 'ADMIN_USER', default: 'admin', description: 'Master account created on first start' },
  {
    name: 'ADMIN_PASSWORD',
    default: '(generated)',
    description: 'Its password (at least 8 characters); unset: generated and printed once in the log',
  },
  {
    name: 'DEMO',
    default: '1',
    description: '1 creates a demo mine on first start (and later the simulator); 0 does not',
  },
  {
    name: 'RETENTION_RAW_HOURS',
    default: '48',
    description:
      'Raw miner samples kept this long; FBOX and tank samples 7 days or this, whichever is longer',
  },
  { name: 'RETENTION_1M_DAYS', default: '30', description: '1-minute history rollups kept this long' },
  { name: 'RETENTION_1H_DAYS', default: '400', description: '1-hour history rollups kept this long' },
  {
    name: 'LOG_EXPORT_RETENTION_DAYS',
    default: '7',
    description: 'Miner log exports (their zips) are deleted this long after they were started',
  },
  {
    name: 'COMMAND_TIMEOUT_SECONDS',
    default: '30',
    description: 'A device command not acknowledged by its gateway within this time becomes timed_out',
  },
  {
    name: 'TASK_LEASE_SECONDS',
    default: '60',
    description:
      "How long a server process holds a task it evaluates; a crashed process's tasks are taken over after it",
  },
  { name: 'LOG_LEVEL', default: 'info', description: 'fatal, error, warn, info, debug, trace or silent' },
  {
    name: 'SESSION_TTL_MINUTES',
    default: '1440',
    description: 'Login session lifetime, extended while used',
  },
  {
    name: 'SESSION_MAX_HOURS',
    default: '168',
    description: 'Absolute session lifetime: a session ends this long after login even while used',
  },
  { name: 'WEB_DIST', default: 'apps/web/dist', description: 'Built web console served by the server' },
  {
    name: 'TRUST_PROXY',
    default: '0',
    description: '1 trusts X-Forwarded-* headers (behind a reverse proxy)',
  },
  {
    name: 'SECRET_KEY',
    default: '(DATA_DIR/secret.key)',
    description:
      'Key encrypting stored secrets: 32 bytes as 64 hex digits or base64. Unset: generated into DATA_DIR/secret.key (one process only; every process of a PostgreSQL deployment must share it)',
  },
  {
    name: 'SECRET_KEY_PREVIOUS',
    default: '(unset)',
    description:
      'Comma-separated previous keys during a rotation: secrets under them are re-encrypted with SECRET_KEY at start-up',
  },
  // ── notify ── (alert push: modules/notify, README "Notifications")
  {
    name: 'PUBLIC_URL',
    default: 'http://localhost:<PORT>',
    description: 'Address of the console as users reach it, for the alert links in notifications',
  },
  {
    name: 'SMTP_URL',
    default: '(unset)',
    description:
      'smtp://user:pass@host:port (smtps:// for TLS) sending alert e-mail; unset: e-mail not configured',
  },
  { name: 'MAIL_FROM', default: '(unset)', description: 'Sender of alert e-mail; required with SMTP_URL' },
  {
    name: 'TELEGRAM_BOT_TOKEN',
    default: '(unset)',
    description: 'Bot API token sending alerts to Telegram chats; unset: Telegram not configured',
  },
  {
    name: 'TELEGRAM_API_URL',
    default: 'https://api.telegram.org',
    description: 'Telegram Bot API address',
  },
  {
    name: 'SMS_URL',
    default: 'https://api.twilio.com',
    description: "SMS gateway speaking Twilio's Messages API (POST /2010-04-01/Accounts/<SID>/Messages.json)",
  },
  {
    name: 'SMS_ACCOUNT_SID',
    default: '(unset)',
    description: 'Twilio Account SID; unset: SMS not configured',
  },
  {
    name: 'SMS_AUTH_TOKEN',
    default: '(unset)',
    description: 'Twilio Auth Token; required with SMS_ACCOUNT_SID',
  },
  {
    name: 'SMS_FROM',
    default: '(unset)',
    description: 'Sending number (E.164) or Messaging Service SID (MG…); required with SMS_ACCOUNT_SID',
  },
  {
    name: 'NOTIFY_GROUP_SECONDS',
    default: '5',
    description: 'How long notifications wait to be merged with others of the same rule and FBOX',
  },
  {
    name: 'NOTIFY_MAX_ATTEMPTS',
    default: '6',
    description: 'Tries of a notification before it is marked failed',
  },
  // ── end notify ──
  // ── cameras ── (modules/camera, docs/cameras.md)
  {
    name: 'ZLM_URL',
    default: '(unset)',
    description:
      "Media server speaking ZLMediaKit's HTTP API (http://host:port) for camera status and snapshots; unset: cameras not configured (with DEMO=1, the simulator's)",
  },
  {
    name: 'ZLM_SECRET',
    default: '(empty)',
    description: "The media server's api.secret, sent with every call (never logged or answered)",
  },
  // ── end cameras ──
];

const intString = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, { error: `must be an integer from ${min} to ${max}` })
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `must be an integer from ${min} to ${max}` });

const secretKey = z
  .string()
  .transform(parseSecretKey)
  .refine((k) => k !== null, { error: 'must be 32 bytes as 64 hex digits or base64' })
  .transform((k) => k as Buffer);

const flag = z.enum(['0', '1'], { error: 'must be 0 or 1' }).transform((v) => v === '1');

const EnvSchema = z.object({
  PORT: intString(0, 65535).default(8080),
  HOST: z.string().min(1, { error: 'must not be empty' }).default('0.0.0.0'),
  MQTT_PORT: intString(0, 65535).optional(),
  MQTT_MAX_PACKET_BYTES: intString(65_536, 268_435_455).default(8 * 1024 * 1024),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\/\S+$/, { error: 'must start with mqtt:// or mqtts://' })
    .optional(),
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[\w-]{1,64}$/, { error: 'must be 1 to 64 letters, digits, _ or -' })
    .default('fbox-ingest'),
  MQTT_CLIENT_ID: z
    .string()
    .regex(/^[\w.-]{1,128}$/, { error: 'must be 1 to 128 letters, digits, _, . or -' })
    .optional(),
  MQTT_SESSION_EXPIRY_SECONDS: intString(0, 4_294_967_295).default(3600),
  DATA_DIR: z.string().min(1, { error: 'must not be empty' }).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, {
      error: 'must be a postgres:// or postgresql:// URL (unset it for SQLite)',
    })
    .optional(),
  INGEST_WRITER_THREAD: z
    .enum(['0', '1', 'auto'], { error: 'must be 0, 1 or auto' })
    .transform((v) => (v === 'auto' ? v : v === '1'))
    .default('auto'),
  ADMIN_USER: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(50, { error: 'must be at most 50 characters' })
    .default('admin'),
  ADMIN_PASSWORD: z
    .string()
    .min(8, { error: 'must be at least 8 characters' })
    .max(128, { error: 'must be at most 128 characters' })
    .optional(),
  DEMO: flag.default(true),
  RETENTION_RAW_HOURS: intString(1, 87_600).default(48),
  RETENTION_1M_DAYS: intString(1, 3650).default(30),
  RETENTION_1H_DAYS: intString(1, 36_500).default(400),
  LOG_EXPORT_RETENTION_DAYS: intString(1, 365).default(7),
  COMMAND_TIMEOUT_SECONDS: intString(1, 86_400).default(30),
  TASK_LEASE_SECONDS: intString(1, 3600).default(60),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  SESSION_TTL_MINUTES: intString(1, 525_600).default(1440),
  SESSION_MAX_HOURS: intString(1, 8760).default(168),
  WEB_DIST: z.string().min(1, { error: 'must not be empty' }).default(defaultWebDist),
  TRUST_PROXY: flag.default(false),
  SECRET_KEY: secretKey.optional(),
  SECRET_KEY_PREVIOUS: z
    .string()
    .transform((v) => v.split(',').map(parseSecretKey))
    .refine((keys) => keys.every((k) => k !== null), {
      error: 'must be a comma-separated list of 32-byte keys (hex or base64)',
    })
    .transform((keys) => keys as Buffer[])
    .optional(),
  // ── notify ──
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/]+(\/\S*)?$/, { error: 'must be an http:// or https:// address' })
    .optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/\S+$/, { error: 'must be smtp://user:pass@host:port or smtps://…' })
    .refine((v) => URL.canParse(v), { error: 'must be a valid smtp:// or smtps:// URL' })
    .optional(),
  MAIL_FROM: z
    .string()
    .trim()
    .min(3, { error: 'must be an address such as "FBOX <alerts@example.com>"' })
    .optional(),
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d+:[\w-]+$/, { error: 'must be a Bot API token such as 123456:ABC-DEF…' })
    .optional(),
  TELEGRAM_API_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, { error: 'must be an http:// or https:// address' })
    .default('https://api.telegram.org'),
  SMS_URL: z
    .string()
    .regex(/^https?:\/\/\S+$/, { error: 'must be an http:// or https:// address' })
    .default('https://api.twilio.com'),
  SMS_ACCOUNT_SID: z
    .string()
    .regex(/^\w{1,64}$/, { error: 'must be a Twilio Account SID' })
    .optional(),
  SMS_AUTH_TOKEN: z.string().min(1).optional(),
  SMS_FROM: z
    .string()
    .regex(/^(\+\d{6,15}|MG\w{32})$/, {
      error: 'must be an E.164 number (+15551234567) or a Messaging Service SID',
    })
    .optional(),
  NOTIFY_GROUP_SECONDS: intString(0, 600).default(5),
  NOTIFY_MAX_ATTEMPTS: intString(1, 50).default(6),
  // ── end notify ──
  ZLM_URL: z
    .string()
    .regex(/^https?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/, {
      error: 'must be an http:// or https:// address (no query)',
    })
    .optional(),
  ZLM_SECRET: z.string().max(256, { error: 'must be at most 256 characters' }).optional(),
});

/** The parsed configuration. */
export interface Config {
  port: number;
  host: string;
  mqttPort: number;
  /** MQTT_PORT was given: a taken port is then an error instead of a fallback. */
  mqttPortExplicit: boolean;
  /** Largest packet the embedded broker takes from a logged-in client. */
  mqttMaxPacketBytes: number;
  mqttUrl: string | undefined;
  /** Shared-subscription group on an external broker: the server processes of one deployment. */
  mqttShareGroup: string;
  /** This process's client id on an external broker: the same across restarts. */
  mqttClientId: string;
  /** How long an external broker keeps our session while we are away. */
  mqttSessionExpirySeconds: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Telemetry batches are written on a worker thread (`ThreadedTelemetryWriter`); `auto`: on SQLite. */
  ingestWriterThread: boolean | 'auto';
  adminUser: string;
  adminPassword: string | undefined;
  demo: boolean;
  logLevel: string;
  /** History retention (jobs/retention): raw miner samples, 1-minute and 1-hour rollups. */
  retentionRawHours: number;
  retention1mDays: number;
  retention1hDays: number;
  /** Miner log exports are deleted this long after they were started. */
  logExportRetentionDays: number;
  commandTimeoutMs: number;
  /** Task engine lease (DESIGN §8). */
  taskLeaseMs: number;
  sessionTtlMinutes: number;
  sessionMaxHours: number;
  webDist: string;
  trustProxy: boolean;
  /** Seals stored secrets (lib/secret-box); undefined: the key file in `dataDir` is used. */
  secretKey: Buffer | undefined;
  /** Keys of a rotation that still open values, resealed under `secretKey` at start-up. */
  previousSecretKeys: Buffer[];
  /** Alert push (modules/notify). */
  notify: NotifyConfig;
  /** The media server of the cameras (modules/camera); null: not configured. */
  zlm: { url: string; secret: string } | null;
}

/** Alert push settings: a channel whose settings are unset is not configured. */
export interface NotifyConfig {
  /** The console's address for alert links, without a trailing slash. */
  publicUrl: string;
  smtp: { url: string; from: string } | null;
  telegram: { apiUrl: string; token: string } | null;
  /** Twilio's Messages API at `url`. */
  sms: { url: string; accountSid: string; authToken: string; from: string } | null;
  groupMs: number;
  maxAttempts: number;
  /** How long one send may take before it counts as a timeout (retried). */
  timeoutMs: number;
}

/**
 * A client id that names this process and stays the same when it restarts: the host and the HTTP
 * port (two processes on one host cannot share a port). A random port gives nothing stable, so the
 * process id stands in.
 */
const defaultMqttClientId = (port: number): string =>
  `fbox-server-${hostname()
    .replace(/[^\w.-]/g, '-')
    .slice(0, 80)}-${port === 0 ? `p${process.pid}` : port}`;

/** Thrown for a wrong variable; its message is the one line printed before exiting. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses the environment. Empty strings count as unset, as shells often export `VAR=`.
 * @throws ConfigError naming the first wrong variable and its value.
 */
export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const input: Record<string, string> = {};
  for (const { name } of configVariables) {
    const value = env[name];
    if (value !== undefined && value !== '') input[name] = value;
  }
  const result = EnvSchema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0]);
    const shown = [
      'ADMIN_PASSWORD',
      'SECRET_KEY',
      'SECRET_KEY_PREVIOUS',
      'SMTP_URL',
      'TELEGRAM_BOT_TOKEN',
      'SMS_AUTH_TOKEN',
      'ZLM_SECRET',
    ].includes(name)
      ? '***'
      : input[name];
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message} (got "${shown}")`);
  }
  const e = result.data;
  const together = (names: string[]) => {
    const set = names.filter((n) => input[n] !== undefined);
    if (set.length > 0 && set.length < names.length) {
      const missing = names.find((n) => input[n] === undefined);
      throw new ConfigError(`Invalid configuration: ${missing} must be set with ${set.join(', ')}`);
    }
  };
  together(['SMTP_URL', 'MAIL_FROM']);
  together(['SMS_ACCOUNT_SID', 'SMS_AUTH_TOKEN', 'SMS_FROM']);
  return {
    port: e.PORT,
    host: e.HOST,
    mqttPort: e.MQTT_PORT ?? 1883,
    mqttPortExplicit: e.MQTT_PORT !== undefined,
    mqttMaxPacketBytes: e.MQTT_MAX_PACKET_BYTES,
    mqttUrl: e.MQTT_URL,
    mqttShareGroup: e.MQTT_SHARE_GROUP,
    mqttClientId: e.MQTT_CLIENT_ID ?? defaultMqttClientId(e.PORT),
    mqttSessionExpirySeconds: e.MQTT_SESSION_EXPIRY_SECONDS,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    ingestWriterThread: e.INGEST_WRITER_THREAD,
    adminUser: e.ADMIN_USER,
    adminPassword: e.ADMIN_PASSWORD,
    demo: e.DEMO,
    logLevel: e.LOG_LEVEL,
    retentionRawHours: e.RETENTION_RAW_HOURS,
    retention1mDays: e.RETENTION_1M_DAYS,
    retention1hDays: e.RETENTION_1H_DAYS,
    logExportRetentionDays: e.LOG_EXPORT_RETENTION_DAYS,
    commandTimeoutMs: e.COMMAND_TIMEOUT_SECONDS * 1000,
    taskLeaseMs: e.TASK_LEASE_SECONDS * 1000,
    sessionTtlMinutes: e.SESSION_TTL_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    webDist: e.WEB_DIST,
    trustProxy: e.TRUST_PROXY,
    secretKey: e.SECRET_KEY,
    previousSecretKeys: e.SECRET_KEY_PREVIOUS ?? [],
    notify: {
      publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
      smtp: e.SMTP_URL && e.MAIL_FROM ? { url: e.SMTP_URL, from: e.MAIL_FROM } : null,
      telegram: e.TELEGRAM_BOT_TOKEN
        ? { apiUrl: e.TELEGRAM_API_URL.replace(/\/+$/, ''), token: e.TELEGRAM_BOT_TOKEN }
        : null,
      sms:
        e.SMS_ACCOUNT_SID && e.SMS_AUTH_TOKEN && e.SMS_FROM
          ? {
              url: e.SMS_URL.replace(/\/+$/, ''),
              accountSid: e.SMS_ACCOUNT_SID,
              authToken: e.SMS_AUTH_TOKEN,
              from: e.SMS_FROM,
            }
          : null,
      groupMs: e.NOTIFY_GROUP_SECONDS * 1000,
      maxAttempts: e.NOTIFY_MAX_ATTEMPTS,
      timeoutMs: 15_000,
    },
    zlm: e.ZLM_URL ? { url: e.ZLM_URL.replace(/\/+$/, ''), secret: e.ZLM_SECRET ?? '' } : null,
  };
};
