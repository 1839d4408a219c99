import fastifyCookie from '@fastify/cookie';
import fastifyFormbody from '@fastify/formbody';
import { limits } from '@fbox/contracts';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ensureDemoFboxes, ensureMasterAccount } from './bootstrap.js';
import { type Config, loadConfig } from './config.js';
import { type Database, openDatabase } from './db/database.js';
import { dbPlugin } from './db/db.plugin.js';
import { startDemoSimulator } from './demo.js';
import { devicesPlugin } from './devices/devices.plugin.js';
import { clientErrorHandler } from './http/client-error.js';
import { docsPlugin } from './http/docs.plugin.js';
import { errorsPlugin } from './http/errors.plugin.js';
import { langPlugin } from './http/lang.plugin.js';
import { legacyPlugin } from './http/legacy/legacy.plugin.js';
import { securityHeadersPlugin } from './http/security-headers.plugin.js';
import { spaPlugin } from './http/spa.plugin.js';
import { ingestPlugin } from './ingest/ingest.plugin.js';
import { jobsPlugin } from './jobs/jobs.plugin.js';
import { type Clock, systemClock } from './lib/clock.js';
import { authPlugin } from './modules/auth/auth.plugin.js';
import { featureMigrations } from './modules/features.js';
import { modulesPlugin } from './modules/modules.plugin.js';
import { mqttPlugin } from './mqtt/mqtt.plugin.js';
import { realtimePlugin } from './realtime/ws.plugin.js';
import { secretsPlugin } from './secrets/secrets.plugin.js';

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    config: Config;
  }
}

export interface BuildAppOptions {
  /** Overrides of the configuration parsed from the environment. */
  config?: Partial<Config>;
  /** An open database (tests); otherwise opened from the configuration. Closed with the app. */
  database?: Database;
  /** false silences logs; true or pino options log. */
  logger?: FastifyServerOptions['logger'];
  now?: Clock;
  /**
   * Start MQTT: the embedded broker, or the client of MQTT_URL (main does; HTTP tests do not need
   * it). `shareGroup` names the shared subscription on an external broker (tests isolate runs).
   */
  mqtt?: boolean | { shareGroup?: string };
  /** Run the job loop on a timer (main does; tests call `app.jobs.tick()`). */
  jobs?: boolean;
  /** With DEMO=1, start the in-process demo simulator once listening (main does). */
  simulator?: boolean;
  /** Create the master account on an empty database (default true). */
  seed?: boolean;
}

/** CSP of DESIGN §9: antd injects its CSS at runtime, hence `style-src 'unsafe-inline'`. */
const contentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: ["'self'", 'ws:', 'wss:'],
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/** Builds the server; plugins are registered in dependency order. Call `listen` or `inject` after. */
export const buildApp = async (options: BuildAppOptions = {}): Promise<FastifyInstance> => {
  const config: Config = { ...loadConfig({}), ...options.config };
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    bodyLimit: limits.bodyLimitBytes,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    clientErrorHandler,
  });
  app.decorate('clock', options.now ?? systemClock);
  app.decorate('config', config);

  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy,
    referrerPolicy: { policy: 'same-origin' },
  });
  await app.register(fastifyCookie);
  await app.register(fastifyFormbody, { bodyLimit: limits.bodyLimitBytes });
  await app.register(langPlugin);
  await app.register(errorsPlugin);
  await app.register(dbPlugin, {
    database: options.database ?? openDatabase(config),
    migrations: featureMigrations,
  });
  await app.register(secretsPlugin);
  await app.register(authPlugin, {
    sessionTtlMinutes: config.sessionTtlMinutes,
    sessionMaxHours: config.sessionMaxHours,
  });
  // Device data path first: the HTTP modules use its services and close before it.
  await app.register(devicesPlugin);
  if (options.mqtt) {
    await app.register(mqttPlugin, {
      port: config.mqttPort,
      explicit: config.mqttPortExplicit,
      host: config.host,
      url: config.mqttUrl,
      shareGroup:
        (typeof options.mqtt === 'object' ? options.mqtt.shareGroup : undefined) ?? config.mqttShareGroup,
      maxPacketBytes: config.mqttMaxPacketBytes,
      clientId: config.mqttClientId,
      sessionExpirySeconds: config.mqttSessionExpirySeconds,
    });
  } else {
    app.decorate('mqttBroker', null);
    app.decorate('mqtt', null);
    app.decorate('mqttClients', null);
  }
  await app.register(ingestPlugin);
  await app.register(jobsPlugin, { start: options.jobs ?? false });
  await app.register(modulesPlugin);
  await app.register(legacyPlugin);
  await app.register(realtimePlugin);
  await app.register(docsPlugin);
  await app.register(spaPlugin, { webDist: config.webDist });
  let simulator: Awaited<ReturnType<typeof startDemoSimulator>> = null;
  // Gateways disconnect before the broker and ingest shut down, so their last messages are kept.
  app.addHook('preClose', async () => {
    await simulator?.stop();
  });
  await app.ready();
  if (options.seed !== false) await ensureMasterAccount(app, config);
  if (config.demo) await ensureDemoFboxes(app);
  if (options.simulator && config.demo) {
    try {
      simulator = await startDemoSimulator(app);
    } catch (error) {
      app.log.error({ err: error }, 'demo simulator failed to start');
    }
  }
  return app;
};
