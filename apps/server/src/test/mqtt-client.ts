import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TelemetryMessage } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll } from 'vitest';
import type { CreatedFbox } from '../devices/device.service.js';

/**
 * Takes the external test broker for one test at a time, across the test processes (both database
 * projects run at once). A server's session there receives every gateway's telemetry on the broker,
 * and Mosquitto queues at most 1,000 messages for a session that is away: two outage tests at once
 * filled it and Mosquitto dropped the newest. Answers the release; a lock older than 150 s (its test
 * process died) is taken over.
 */
const lockExternalBroker = async (): Promise<() => void> => {
  const lock = join(tmpdir(), 'fbox-test-external-broker.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      return () => rmSync(lock, { recursive: true, force: true });
    } catch {
      try {
        if (Date.now() - statSync(lock).mtimeMs > 150_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        // Released meanwhile.
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
};

/**
 * For a describe block using the external test broker under session `clientId`: takes the broker
 * (`lockExternalBroker`) before its tests; after them, `stop()`s the test's clients and servers,
 * then ends the session with whatever is queued for it and gives the broker back.
 */
export const takeExternalBroker = (url: string, clientId: string, stop: () => Promise<unknown>) => {
  let release: (() => void) | undefined;
  beforeAll(async () => {
    release = await lockExternalBroker();
  }, 200_000);
  afterAll(async () => {
    try {
      await stop();
      const wipe = await connectAsync(url, { clientId, clean: true, protocolVersion: 5, reconnectPeriod: 0 });
      await wipe.endAsync();
    } finally {
      release?.();
    }
  });
};

/** Polls `check` until it holds (MQTT delivery is asynchronous), failing after `timeoutMs`. */
export const waitFor = async (check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

/** URL of the broker the app uses: its embedded one, or the external MQTT_URL. */
export const brokerUrl = (app: FastifyInstance): string =>
  app.mqttBroker ? `mqtt://127.0.0.1:${app.mqttBroker.port}` : app.config.mqttUrl!;

/**
 * A gateway client for `fbox`: on the embedded broker it logs in with the box's account and its
 * device id as client id (the broker refuses any other); the test Mosquitto is anonymous. Extra
 * options (a will, other credentials) pass through.
 */
export const connectGateway = (
  app: FastifyInstance,
  fbox: Pick<CreatedFbox, 'mqtt_username' | 'mqtt_password' | 'device_id'>,
  options: Parameters<typeof connectAsync>[1] = {},
): Promise<MqttClient> =>
  connectAsync(brokerUrl(app), {
    ...(app.mqttBroker && { username: fbox.mqtt_username, password: fbox.mqtt_password }),
    clientId: fbox.device_id,
    reconnectPeriod: 0,
    connectTimeout: 5000,
    ...options,
  });

/** A valid telemetry message: `miners` miners (SN `<prefix>-<i>`) spread over `tanks` tanks. */
export const telemetry = (options: {
  seq: number;
  ts: number;
  miners?: number;
  tanks?: number;
  snPrefix?: string;
  hashrate?: number;
}): TelemetryMessage => {
  const tanks = options.tanks ?? 0;
  return {
    v: 1,
    seq: options.seq,
    ts: options.ts,
    box: {
      temperature: 31.5,
      humidity: 40,
      voltage: [400, 401, 399],
      power_kw: 120,
      meters: [
        { no: 1, energy_kwh: 1000 + options.seq, power_kw: 60 },
        { no: 2, energy_kwh: 2000, power_kw: 60 },
      ],
      immersion: { status: 'on', percent: 80 },
    },
    tanks: Array.from({ length: tanks }, (_, i) => ({
      no: i + 1,
      oil_in_temp: 40,
      oil_out_temp: 50,
      liquid_level: 90,
      fans: [1200, 1300],
      oil_pump_efficiency: 95,
      water_in_temp: 25,
      water_speed: 2,
      short_circuit: false,
      energy_saving: false,
      control_mode: 'auto' as const,
      main_temperatures: [45, -999],
    })),
    miners: Array.from({ length: options.miners ?? 2 }, (_, i) => ({
      sn: `${options.snPrefix ?? 'SN'}-${i}`,
      ip: `10.0.0.${i + 1}`,
      worker: `acct.1x${i}`,
      model: 'S19 Pro',
      brand: 'Antminer',
      pool: 'ViaBTC',
      pool_address: 'stratum+tcp://btc.viabtc.io:3333',
      firmware: '2024.1',
      tank_no: tanks > 0 ? (i % tanks) + 1 : null,
      outlet: i + 1,
      online: true,
      mode: 'high' as const,
      chip_avg_temp: 60,
      chip_max_temp: 70,
      hashrate_theoretical: 110,
      hashrate_realtime: options.hashrate ?? 100,
      hashrate_avg: 105,
      power_w: 3250,
      fault: '',
      uptime_s: 3600,
    })),
  };
};

/**
 * On the shared test Mosquitto, apps of other test files run at the same time with mine ids of their
 * own, and agent topics name mines by id: this app's next mines get ids far from theirs (SQLite,
 * where the external-broker runs are). Call before creating the mines.
 */
export const spreadAreaIds = async (app: FastifyInstance): Promise<void> => {
  if (app.dbDialect !== 'sqlite') return;
  const start = 1_000_000 + Math.floor(Math.random() * 1_000_000_000);
  await sql`delete from sqlite_sequence where name = 'areas'`.execute(app.db);
  await sql`insert into sqlite_sequence (name, seq) values ('areas', ${start})`.execute(app.db);
};
