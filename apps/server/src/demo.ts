import { randomBytes } from 'node:crypto';
import { cameraIntervalMinutes, cameraRetentionDays, zlmStreamOf } from '@fbox/contracts';
import {
  type PoolApi,
  type Simulator,
  type SimulatorGatewaySpec,
  startPoolApi,
  startSimulator,
  startZlmApi,
  type ZlmStream,
} from '@fbox/simulator';
import type { FastifyInstance } from 'fastify';
import type { FboxKind } from './db/schema.js';
import { CameraRepository } from './modules/camera/camera.repository.js';

export const demoAreaName = 'Demo Mine';

/** The demo's boxes: about 350 miners in all, so lists, charts and filters have something to show. */
const demoBoxes: { name: string; kind: FboxKind; tanks: number; miners: number }[] = [
  { name: 'Hydro 01', kind: 'hydro', tanks: 0, miners: 80 },
  { name: 'Immersion 01', kind: 'immersion', tanks: 3, miners: 105 },
  { name: 'Immersion 02', kind: 'immersion', tanks: 4, miners: 100 },
  { name: 'Air 01', kind: 'air', tanks: 0, miners: 60 },
];

/** Reporting interval of the demo gateways: short, so the console visibly moves (one the settings offer). */
const demoIntervalS = 10;

/** Creates the demo FBOXes (with MQTT accounts and tanks) in the demo area; miners come from telemetry. */
export const seedDemoFboxes = async (app: FastifyInstance, areaId: number): Promise<void> => {
  for (const [i, box] of demoBoxes.entries()) {
    await app.devices.createFbox(areaId, {
      name: box.name,
      number: `FB-${String(i + 1).padStart(3, '0')}`,
      kind: box.kind,
      ip_range: `10.0.${i + 1}.1-10.0.${i + 1}.254`,
      reporting_interval_s: demoIntervalS,
      tanks: box.tanks,
      collectors: [
        { no: 1, mac: `02:00:00:00:0${i + 1}:01`, account: 'collector', password: '' },
        { no: 2, mac: `02:00:00:00:0${i + 1}:02`, account: 'collector', password: '' },
      ],
      meters: [
        { no: 1, meter_number: `M${i + 1}01`, sensor_ratio: 1 },
        { no: 2, meter_number: `M${i + 1}02`, sensor_ratio: 1 },
      ],
    });
  }
};

/** The demo mine's pool subaccount: at the simulator's pool, which speaks Braiins Pool's API. */
const demoPool = { pool: 'Braiins Pool', subaccount: 'demo', coin: 'BTC' } as const;

/**
 * Gives the demo mine its pool subaccount (once), with a token of its own for the simulator's pool
 * API, so the pool sync has a pool to read from the first minute; and its revenue settings and
 * cameras (each once). Runs at every start with DEMO=1.
 */
export const seedDemoPool = async (app: FastifyInstance, areaId: number, ownerId: number): Promise<void> => {
  await seedDemoRevenue(app, areaId);
  await seedDemoCameras(app, areaId);
  const existing = await app.pools.credentials(areaId);
  if (existing.some((c) => c.pool === demoPool.pool && c.subaccount === demoPool.subaccount)) return;
  const caller = { id: ownerId, isMaster: true, parentId: null, role: 'master', area: null } as const;
  await app.pools.saveSubaccount(caller, {
    area_id: areaId,
    ...demoPool,
    api_key: randomBytes(16).toString('hex'),
  } as Parameters<FastifyInstance['pools']['saveSubaccount']>[1]);
};

/**
 * Demo values of the revenue settings (not live market data): a network difficulty of 126 T and
 * 3.15 BTC a block (3.125 subsidy + fees) give a hashprice of about 0.0000005 BTC per TH/s and day,
 * what the simulator's pool credits; 95,000 USD a coin. Set once; a user's edit stays.
 */
const demoRevenue = {
  coin: 'BTC',
  network_difficulty: 126e12,
  block_reward: 3.15,
  coin_price: 95_000,
  fiat: 'USD',
  price_url: '',
} as const;

const seedDemoRevenue = async (app: FastifyInstance, areaId: number): Promise<void> => {
  await app.db
    .insertInto('revenue_settings')
    .values({
      area_id: areaId,
      ...demoRevenue,
      price_fetched_at: null,
      price_error: null,
      price_next_at: null,
      updated_at: app.clock(),
    })
    .onConflict((oc) => oc.column('area_id').doNothing())
    .execute();
};

/** The demo's cameras on each FBOX: `live/<number>-<key>` streams of the demo media server. */
const demoCameras = [
  { key: 'aisle', name: 'aisle' },
  { key: 'door', name: 'door' },
] as const;

/**
 * Gives each FBOX of the demo mine two cameras, once: the mine's camera settings are written with
 * them, so a mine that has settings (seeded before, or saved by a user) keeps its cameras as they are.
 */
const seedDemoCameras = async (app: FastifyInstance, areaId: number): Promise<void> => {
  const repo = new CameraRepository(app.db);
  const now = app.clock();
  const defaults = {
    interval_minutes: cameraIntervalMinutes.default,
    retention_days: cameraRetentionDays.default,
  };
  if (!(await repo.saveSettings(areaId, defaults, now, true))) return;
  const boxes = await app.db
    .selectFrom('fboxes')
    .select(['id', 'name', 'number'])
    .where('area_id', '=', areaId)
    .orderBy('id')
    .execute();
  for (const box of boxes) {
    for (const camera of demoCameras) {
      const number = (box.number || `fbox-${box.id}`).toLowerCase().replace(/[^a-z0-9_.-]/g, '-');
      await repo.insert(
        { fbox_id: box.id, name: `${box.name} ${camera.name}`, stream: `live/${number}-${camera.key}` },
        now,
      );
    }
  }
};

/** The demo media server's streams: the demo mine's `app/stream` cameras, read again each half minute. */
const demoStreams = async (app: FastifyInstance): Promise<ZlmStream[]> =>
  (await new CameraRepository(app.db).streamsOfAreasNamed(demoAreaName)).flatMap((camera) => {
    const named = zlmStreamOf(camera.stream);
    return named ? [{ ...named, label: camera.name }] : [];
  });

/**
 * Without ZLM_URL, the demo's cameras are served by the simulator's media server (ZLMediaKit's API
 * with generated frames), in process, and the camera client is pointed at it. Null with ZLM_URL.
 */
const startDemoMediaServer = async (app: FastifyInstance) => {
  if (app.config.zlm) return null;
  let streams = await demoStreams(app);
  const zlm = await startZlmApi({ streams: () => streams, secret: randomBytes(16).toString('hex'), seed: 7 });
  const refresh = setInterval(() => {
    demoStreams(app)
      .then((next) => {
        streams = next;
      })
      .catch(() => undefined);
  }, 30_000);
  refresh.unref();
  app.zlm.setTarget({ url: zlm.url, secret: zlm.secret });
  app.log.info({ url: zlm.url, cameras: streams.length }, 'demo media server started');
  return {
    stop: async () => {
      clearInterval(refresh);
      app.zlm.setTarget(null);
      await zlm.stop();
    },
  };
};

/**
 * Starts the simulator's pool API for the demo mine's pool subaccount and points the pool sync's
 * Braiins adapter at it. Null without a demo subaccount.
 */
const startDemoPool = async (
  app: FastifyInstance,
  simulator: Simulator,
  areaIds: number[],
): Promise<PoolApi | null> => {
  for (const areaId of areaIds) {
    const account = (await app.pools.credentials(areaId)).find(
      (c) => c.pool === demoPool.pool && c.subaccount === demoPool.subaccount,
    );
    if (!account?.api_key) continue;
    const pool = await startPoolApi({ gateways: () => simulator.gateways, token: account.api_key, seed: 7 });
    app.poolSync.setBaseUrl('braiins', pool.url);
    app.log.info({ url: pool.url }, 'demo pool API started');
    return pool;
  }
  return null;
};

/** Local broker URL for in-process gateways: the embedded broker's port, or MQTT_URL. */
const brokerUrl = (app: FastifyInstance): string | null => {
  if (app.mqttBroker) return `mqtt://127.0.0.1:${app.mqttBroker.port}`;
  return app.config.mqttUrl ?? null;
};

/**
 * Starts the in-process simulator for the FBOXes of the demo mine (every start with DEMO=1, so a
 * restarted server keeps the demo alive). The gateways connect through the broker like real ones;
 * the demo mine's pool subaccount is read from the simulator's pool API. Returns null when there is
 * no demo mine or no broker.
 */
export const startDemoSimulator = async (
  app: FastifyInstance,
): Promise<{ simulator: Simulator; stop: () => Promise<void> } | null> => {
  const url = brokerUrl(app);
  if (!url) return null;
  const areas = await app.db.selectFrom('areas').select('id').where('area_name', '=', demoAreaName).execute();
  const gateways: SimulatorGatewaySpec[] = [];
  for (const area of areas) {
    const boxes = await app.devices.listWithCredentials(area.id);
    // Where each meter's register stood at the last report: a restarted demo counts on from there
    // (as a real gateway's meters do), instead of a fresh register that reads as a meter reset.
    const registers =
      boxes.length === 0
        ? []
        : await app.db
            .selectFrom('meter_reading_state')
            .select(['fbox_id', 'no', 'energy_kwh'])
            .where(
              'fbox_id',
              'in',
              boxes.map((b) => b.id),
            )
            .execute();
    const registerOf = (fboxId: number, no: number) => {
      const row = registers.find((r) => r.fbox_id === fboxId && r.no === no);
      return row ? Number(row.energy_kwh) : undefined;
    };
    for (const fbox of boxes) {
      const layout = demoBoxes.find((b) => b.name === fbox.name);
      const tanks = layout?.tanks ?? 2;
      const miners = layout?.miners ?? 40;
      gateways.push({
        deviceId: fbox.device_id,
        kind: fbox.kind,
        username: fbox.mqtt_username,
        password: fbox.mqtt_password,
        intervalMs: fbox.reporting_interval_s * 1000,
        // Workers `demo.<box>x<n>`: the demo subaccount's, so the revenue page matches them to it.
        account: demoPool.subaccount,
        meterEnergyKwh: [registerOf(fbox.id, 1), registerOf(fbox.id, 2)],
        ...(fbox.kind === 'immersion' ? { tanks, minersPerTank: Math.ceil(miners / tanks) } : { miners }),
      });
    }
  }
  if (gateways.length === 0) return null;
  const simulator = await startSimulator({ brokerUrl: url, gateways, faults: { rate: 0.0005 }, seed: 7 });
  app.log.info({ gateways: gateways.length }, 'demo simulator started');
  const pool = await startDemoPool(
    app,
    simulator,
    areas.map((a) => a.id),
  ).catch((error: unknown) => {
    app.log.error({ err: error }, 'demo pool API failed to start');
    return null;
  });
  const media = await startDemoMediaServer(app).catch((error: unknown) => {
    app.log.error({ err: error }, 'demo media server failed to start');
    return null;
  });
  return {
    simulator,
    stop: async () => {
      await Promise.all([simulator.stop(), pool?.stop(), media?.stop()]);
    },
  };
};
