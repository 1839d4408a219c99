import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { PortInUseError, portInUseMessage } from './lib/ports.js';

/** Starts the server: configuration, database, HTTP, MQTT; stops cleanly on SIGTERM/SIGINT. */
const main = async () => {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp({ config, mqtt: true, jobs: true, simulator: true });
  } catch (error) {
    if (error instanceof PortInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as { code?: string }).code === 'EADDRINUSE') {
      console.error(portInUseMessage('HTTP', config.port));
      await app.close();
      process.exit(1);
    }
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  app.log.info(
    { port, mqttPort: app.mqttBroker?.port ?? null },
    `http listening on http://${shownHost}:${port}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
};

main().catch((error: unknown) => {
  console.error('Start-up failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
