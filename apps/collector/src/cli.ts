#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { startCollector } from './collector.js';
import { ConfigError, loadConfig } from './config.js';
import { COLLECTOR_VERSION } from './gateway.js';
import { lineLogger } from './logger.js';
import { resolveCloudAccount } from './register.js';

const USAGE = `FBOX Cloud site collector: finds the miners on this network, reads them over their own APIs and
reports them to FBOX Cloud as an FBOX gateway.

Usage:
  npm run collector -- --config collector.yaml
  node apps/collector/dist/cli.js --config collector.yaml [--check]

  --config FILE   the configuration (see apps/collector/collector.example.yaml, docs/collector.md)
  --check         validate the configuration and exit
  --version       print the version
`;

const main = async (): Promise<void> => {
  let values: { config?: string; check?: boolean; help?: boolean; version?: boolean };
  try {
    ({ values } = parseArgs({
      options: {
        config: { type: 'string', short: 'c' },
        check: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values.version) {
    process.stdout.write(`${COLLECTOR_VERSION}\n`);
    return;
  }
  if (!values.config) {
    process.stderr.write(`--config is required\n\n${USAGE}`);
    process.exit(2);
  }
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(values.config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  if (values.check) {
    process.stdout.write(`${values.config}: ok\n`);
    return;
  }
  const logger = lineLogger(config.log_level);
  // With the Agent Key: the FBOX registered before (gateway.json), or one registered now.
  config = await resolveCloudAccount(config, { logger });
  logger.info(
    { version: COLLECTOR_VERSION, device_id: config.cloud.device_id, ranges: config.scan.length },
    'collector starting',
  );
  const collector = await startCollector({ config, logger });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'collector stopping');
    void collector.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
};

main().catch((error: unknown) => {
  process.stderr.write(`collector: ${(error as Error).message}\n`);
  process.exit(1);
});
