#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { runFaultCommand } from './fault-cli.js';
import { consoleLogger, type LogLevel } from './logger.js';
import { MINER_MODELS } from './model/catalog.js';
import type { BoxKind } from './model/miner.js';
import { fetchServerFboxes } from './server-source.js';
import { type SimulatorGatewaySpec, startSimulator } from './simulator.js';

const USAGE = `FBOX Cloud mine simulator: FBOX gateways that publish telemetry over MQTT and execute commands.

Usage:
  npm run simulate -- [options]
  node apps/simulator/dist/cli.js [options]
  npm run simulate -- fault --help       inject a named fault into a running simulator

Broker:
  --broker URL            MQTT broker (default: $MQTT_URL or mqtt://127.0.0.1:1883)

Which FBOXes (either a file or a quick generated set):
  --gateways FILE         JSON array of FBOXes: [{ "deviceId", "username", "password", "kind",
                          "tanks", "minersPerTank", "miners" (count or list), "models", "account" }]
  --boxes N               generate N FBOXes (default 1) ...
  --tanks-per-box N       ... with N tanks each (default 2; air/hydro: groups of positions)
  --miners-per-tank N     ... and N miners per tank (default 10)
  --kind KIND             immersion | air | hydro | mixed (default immersion; mixed cycles the three)
  --prefix TEXT           device id prefix of generated FBOXes (default SIM → SIM001, SIM002 …)
  --mqtt-username NAME    MQTT account for generated FBOXes (default: none, for brokers without auth)
  --mqtt-password TEXT    its password

  --server URL            or: take the FBOXes and their MQTT accounts from a running FBOX Cloud server
                          (http://host:port), signing in with --user and --password (or $FBOX_PASSWORD);
                          the account must see MQTT credentials (master account)
  --user NAME             server account (with --server)
  --password TEXT         its password (with --server)
  --google-code CODE      its TOTP code, if it signs in with two factors
  --area ID               only the FBOXes of this area (with --server; default: every area)
                          The server knows FBOXes and tanks, not miners: miners per box come from
                          --tanks-per-box/--miners-per-tank; the interval is each FBOX's reporting
                          interval unless --interval is given.

Behaviour:
  --interval DURATION     telemetry period: 30s, 2s, 500ms, 1m (default 30s; a bare number is seconds)
  --seed N                seed of the randomness (default 1)
  --fault-rate P          fault events per miner per report, 0–1 (default 0)
  --scenarios on|off      inject the named faults in turn, one every 3 min (default: on with a
                          fault rate above 0, else off)
  --control PATH          fault control socket (default: one per broker in the temp directory)
  --restart-time DURATION miner reboot time (default 60s)
  --account NAME          pool account of the workers (default fboxdemo)
  --log-level LEVEL       debug | info | warn | error | silent (default info)
  -h, --help              this help

Miner models: ${MINER_MODELS.map((m) => m.model).join(', ')}.
Stops on SIGINT/SIGTERM after publishing each FBOX's retained "offline" status.`;

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;

const parseDuration = (text: string): number => {
  const match = DURATION.exec(text.trim());
  if (!match) throw new Error(`invalid duration "${text}" (examples: 30s, 500ms, 2m)`);
  const value = Number(match[1]);
  const unit = match[2] ?? 's';
  const ms = value * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms' | 's' | 'm' | 'h'];
  if (!(ms > 0)) throw new Error(`duration must be positive: "${text}"`);
  return Math.round(ms);
};

const positiveInt = (name: string, text: string | undefined, fallback: number, max: number): number => {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new Error(`--${name} must be an integer from 1 to ${max}`);
  return n;
};

const kinds = ['immersion', 'air', 'hydro'] as const;

const PlacementSchema = z.object({
  model: z.string().optional(),
  sn: z.string().min(1).max(64).optional(),
  tank: z.number().int().min(1).optional(),
  worker: z.string().max(128).optional(),
  ip: z.string().max(64).optional(),
  poolAddress: z.string().max(256).optional(),
});

const GatewayFileSchema = z
  .array(
    z.object({
      deviceId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
      username: z.string().optional(),
      password: z.string().optional(),
      kind: z.enum(kinds).optional(),
      boxNo: z.number().int().min(1).optional(),
      tanks: z.number().int().min(0).max(64).optional(),
      minersPerTank: z.number().int().min(0).max(5000).optional(),
      miners: z.union([z.number().int().min(0).max(5000), z.array(PlacementSchema).max(5000)]).optional(),
      models: z.array(z.string()).optional(),
      account: z.string().max(64).optional(),
      poolAddress: z.string().max(256).optional(),
      ipRange: z.string().max(64).optional(),
      intervalMs: z.number().int().positive().optional(),
      ignoreCommands: z.boolean().optional(),
    }),
  )
  .min(1);

const main = async (): Promise<number> => {
  if (process.argv[2] === 'fault') return runFaultCommand(process.argv.slice(3));
  const { values } = parseArgs({
    options: {
      broker: { type: 'string' },
      gateways: { type: 'string' },
      boxes: { type: 'string' },
      'tanks-per-box': { type: 'string' },
      'miners-per-tank': { type: 'string' },
      kind: { type: 'string' },
      prefix: { type: 'string' },
      'mqtt-username': { type: 'string' },
      'mqtt-password': { type: 'string' },
      server: { type: 'string' },
      user: { type: 'string' },
      password: { type: 'string' },
      'google-code': { type: 'string' },
      area: { type: 'string' },
      interval: { type: 'string' },
      seed: { type: 'string' },
      'fault-rate': { type: 'string' },
      scenarios: { type: 'string' },
      control: { type: 'string' },
      'restart-time': { type: 'string' },
      account: { type: 'string' },
      'log-level': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const level = (values['log-level'] ?? 'info') as LogLevel;
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(level)) throw new Error('invalid --log-level');
  const log = consoleLogger(level);
  const brokerUrl = values.broker ?? process.env.MQTT_URL ?? 'mqtt://127.0.0.1:1883';
  const intervalMs = parseDuration(values.interval ?? '30s');
  const seed = values.seed === undefined ? 1 : Number(values.seed);
  if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
  const faultRate = values['fault-rate'] === undefined ? 0 : Number(values['fault-rate']);
  if (!Number.isFinite(faultRate) || faultRate < 0 || faultRate > 1)
    throw new Error('--fault-rate must be 0–1');
  const restartMs = parseDuration(values['restart-time'] ?? '60s');
  if (values.scenarios !== undefined && !['on', 'off'].includes(values.scenarios))
    throw new Error('--scenarios must be on or off');

  let gateways: SimulatorGatewaySpec[];
  if (values.gateways && values.server) throw new Error('--gateways and --server cannot be combined');
  const serverOnly = (['user', 'password', 'google-code', 'area'] as const).filter(
    (k) => values[k] !== undefined,
  );
  if (!values.server && serverOnly.length) throw new Error(`--${serverOnly.join(', --')} need --server`);
  if (values.server) {
    const quick = ['boxes', 'kind', 'prefix', 'mqtt-username', 'mqtt-password'] as const;
    const mixed = quick.filter((k) => values[k] !== undefined);
    if (mixed.length) throw new Error(`--server cannot be combined with --${mixed.join(', --')}`);
    const user = values.user;
    const password = values.password ?? process.env.FBOX_PASSWORD;
    if (!user || !password) throw new Error('--server needs --user and --password (or $FBOX_PASSWORD)');
    const tanks = positiveInt('tanks-per-box', values['tanks-per-box'], 2, 64);
    const perTank = positiveInt('miners-per-tank', values['miners-per-tank'], 10, 5000);
    const areaId = values.area === undefined ? undefined : positiveInt('area', values.area, 1, 2 ** 31);
    const boxes = await fetchServerFboxes({
      serverUrl: values.server,
      username: user,
      password,
      ...(values['google-code'] ? { googleCode: values['google-code'] } : {}),
      ...(areaId !== undefined ? { areaId } : {}),
    });
    if (boxes.length === 0) throw new Error(`${values.server}: the account sees no FBOX`);
    log.info({ server: values.server, fboxes: boxes.length }, 'FBOXes fetched from the server');
    gateways = boxes.map((b) => ({
      deviceId: b.deviceId,
      kind: b.kind,
      username: b.username,
      password: b.password,
      ipRange: b.ipRange,
      ...(b.kind === 'immersion'
        ? { tanks: b.tankCount > 0 ? b.tankCount : tanks, minersPerTank: perTank }
        : { miners: tanks * perTank }),
      ...(values.interval === undefined && b.reportingIntervalS > 0
        ? { intervalMs: b.reportingIntervalS * 1000 }
        : {}),
      ...(values.account !== undefined ? { account: values.account } : {}),
    }));
  } else if (values.gateways) {
    const quick = [
      'boxes',
      'tanks-per-box',
      'miners-per-tank',
      'kind',
      'prefix',
      'mqtt-username',
      'mqtt-password',
    ] as const;
    const mixed = quick.filter((k) => values[k] !== undefined);
    if (mixed.length) throw new Error(`--gateways cannot be combined with --${mixed.join(', --')}`);
    const parsed = GatewayFileSchema.safeParse(JSON.parse(readFileSync(values.gateways, 'utf8')));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${values.gateways}: ${issue?.path.join('.')}: ${issue?.message}`);
    }
    gateways = parsed.data.map((g) => (values.account && !g.account ? { ...g, account: values.account } : g));
  } else {
    const boxes = positiveInt('boxes', values.boxes, 1, 1000);
    const tanks = positiveInt('tanks-per-box', values['tanks-per-box'], 2, 64);
    const perTank = positiveInt('miners-per-tank', values['miners-per-tank'], 10, 5000);
    const kind = values.kind ?? 'immersion';
    if (![...kinds, 'mixed'].includes(kind)) throw new Error('--kind must be immersion, air, hydro or mixed');
    const prefix = values.prefix ?? 'SIM';
    gateways = Array.from({ length: boxes }, (_, i) => ({
      deviceId: `${prefix}${String(i + 1).padStart(3, '0')}`,
      kind: kind === 'mixed' ? kinds[i % 3]! : (kind as BoxKind),
      tanks,
      minersPerTank: perTank,
      ...(values['mqtt-username'] !== undefined ? { username: values['mqtt-username'] } : {}),
      ...(values['mqtt-password'] !== undefined ? { password: values['mqtt-password'] } : {}),
      ...(values.account !== undefined ? { account: values.account } : {}),
    }));
  }

  const simulator = await startSimulator({
    brokerUrl,
    gateways,
    intervalMs,
    seed,
    faults: {
      rate: faultRate,
      ...(values.scenarios !== undefined ? { scenarios: values.scenarios === 'on' } : {}),
    },
    ...(values.control !== undefined ? { control: values.control } : {}),
    restartMs,
    logger: log,
  });
  for (const g of simulator.gateways) {
    log.info(
      {
        deviceId: g.deviceId,
        kind: g.model.kind,
        tanks: g.model.tanks.length,
        miners: g.model.miners.length,
        ipRange: g.model.ipRange,
      },
      'FBOX online',
    );
  }
  const statsTimer = setInterval(() => {
    const { perGateway: _, ...totals } = simulator.stats();
    log.info(totals, 'simulator stats');
  }, 60_000);

  return new Promise<number>((resolve) => {
    let stoppingAt: number | null = null;
    const shutdown = (signal: string): void => {
      if (stoppingAt !== null) {
        // `npm run` forwards the terminal's Ctrl-C, so one press can arrive twice: only a later
        // signal means "exit now".
        if (Date.now() - stoppingAt < 2000) return;
        log.warn({ signal }, 'second signal: exiting without waiting');
        resolve(1);
        return;
      }
      stoppingAt = Date.now();
      clearInterval(statsTimer);
      log.info({ signal }, 'stopping: publishing offline status');
      setTimeout(() => {
        log.error({}, 'stop took longer than 10 s: exiting');
        resolve(1);
      }, 10_000).unref();
      simulator.stop().then(
        () => resolve(0),
        (error: unknown) => {
          log.error({ err: error }, 'stop failed');
          resolve(1);
        },
      );
    };
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
  });
};

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`fbox-simulator: ${(error as Error).message}\n`);
    process.exit(2);
  },
);
