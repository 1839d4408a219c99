import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import {
  type AgentRegister,
  AgentRegisteredSchema,
  agentClientIdPrefix,
  agentRegisterTopics,
  agentTopics,
  agentUsername,
  type HelloMessage,
} from '@fbox/contracts';
import { connect, type IClientOptions } from 'mqtt';
import { z } from 'zod';
import type { CollectorConfig } from './config.js';
import { COLLECTOR_VERSION } from './gateway.js';
import type { Logger } from './logger.js';

/**
 * Registering with the mine's Agent Key (docs/collector.md, "Register with the Agent Key"): the
 * collector logs in as a site agent, asks the cloud for an FBOX of its own, keeps the account it
 * gets in `<state_dir>/gateway.json` (mode 0600) and reports as that FBOX's gateway from then on.
 */

/** An FBOX's gateway account. */
export interface GatewayAccount {
  device_id: string;
  username: string;
  password: string;
}

/** `gateway.json`: the account, and which mine and agent it was obtained for. */
const StoredAccountSchema = z.object({
  area_id: z.number().int(),
  client_id: z.string(),
  device_id: z.string().min(1),
  username: z.string().min(1),
  password: z.string().min(1),
  registered_at: z.string().optional(),
});
type StoredAccount = z.infer<typeof StoredAccountSchema>;

/** Where the obtained account is kept. */
export const gatewayFile = (stateDir: string): string => join(stateDir, 'gateway.json');

/**
 * This agent's client id, `agent-<areaId>-<agentId>`: the configured `agent_id`, else the host name
 * with anything but `A–Z a–z 0–9 _ -` replaced, cut to the 64 characters a client id may have.
 */
export const agentClientId = (areaId: number, agentId: string | undefined, host = hostname()): string => {
  const prefix = agentClientIdPrefix(areaId);
  if (agentId !== undefined) return `${prefix}${agentId}`;
  const sanitized = host
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64 - prefix.length)
    .replace(/-+$/, '');
  return `${prefix}${sanitized || 'collector'}`;
};

/** The account in `gateway.json` when it was obtained for this mine and agent, else null. */
export const readGatewayAccount = async (
  stateDir: string,
  areaId: number,
  clientId: string,
): Promise<GatewayAccount | null> => {
  let text: string;
  try {
    text = await readFile(gatewayFile(stateDir), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let stored: StoredAccount;
  try {
    stored = StoredAccountSchema.parse(JSON.parse(text));
  } catch {
    throw new Error(`${gatewayFile(stateDir)}: not a gateway account; delete it to register again`);
  }
  if (stored.area_id !== areaId || stored.client_id !== clientId) return null;
  return { device_id: stored.device_id, username: stored.username, password: stored.password };
};

/** Writes `gateway.json` readable by its owner only, replacing the old one at once. */
export const writeGatewayAccount = async (
  stateDir: string,
  stored: Omit<StoredAccount, 'registered_at'>,
): Promise<void> => {
  await mkdir(stateDir, { recursive: true });
  const file = gatewayFile(stateDir);
  const temporary = `${file}.tmp`;
  const text = `${JSON.stringify({ ...stored, registered_at: new Date().toISOString() }, null, 2)}\n`;
  await writeFile(temporary, text, { mode: 0o600 });
  // `mode` applies only when the file is created; a left-over temporary keeps its own.
  await chmod(temporary, 0o600);
  await rename(temporary, file);
};

export interface RegisterOptions {
  mqttUrl: string;
  areaId: number;
  agentKey: string;
  clientId: string;
  /** The FBOX's name (1–50 characters). */
  fboxName: string;
  /** Shown in the cloud's client key records (default: the host name). */
  computerName?: string;
  logger: Logger;
  /** How long the login and the answer may take together (default 30 s). */
  timeoutMs?: number;
  mqtt?: Partial<IClientOptions>;
}

/** CONNACK codes of a refused login (MQTT 3.1.1 and 5). */
const refusedLogin = [4, 5, 134, 135];
const refusedId = [2, 133];

/**
 * Logs in as the mine's agent, announces itself (status, hello, as agents do), asks for its FBOX and
 * resolves with the account the cloud answers. Rejects with one clear sentence when the key is
 * refused, the cloud refuses the registration, or nothing answers in time.
 */
export const registerAgent = (options: RegisterOptions): Promise<GatewayAccount> => {
  const { mqttUrl, areaId, clientId, logger } = options;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const status = agentTopics.status(areaId, clientId);
  const client = connect(mqttUrl, {
    clientId,
    username: agentUsername(areaId),
    password: options.agentKey,
    clean: true,
    protocolVersion: 4,
    reconnectPeriod: 0,
    connectTimeout: timeoutMs,
    will: { topic: status, payload: Buffer.from('offline'), qos: 1, retain: true },
    ...options.mqtt,
  });
  return new Promise<GatewayAccount>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: { account: GatewayAccount } | { error: Error }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const end = () =>
        client.end(true, () => ('account' in outcome ? resolve(outcome.account) : reject(outcome.error)));
      if ('account' in outcome && client.connected) {
        // Done as an agent: say so, then leave (the gateway connection follows).
        client.publish(status, 'offline', { qos: 1, retain: true }, end);
      } else end();
    };
    const timer = setTimeout(
      () =>
        finish({
          error: new Error(
            `no answer to the registration from ${mqttUrl} within ${Math.round(timeoutMs / 1000)} s`,
          ),
        }),
      timeoutMs,
    );
    client.on('error', (error) => {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'number' && refusedLogin.includes(code))
        finish({
          error: new Error('the cloud refused the Agent Key: check cloud.agent_key and cloud.area_id'),
        });
      else if (typeof code === 'number' && refusedId.includes(code))
        finish({ error: new Error(`the cloud refused the client id ${clientId}: check cloud.agent_id`) });
      else finish({ error: new Error(`cannot register with ${mqttUrl}: ${error.message}`) });
    });
    client.on('close', () => {
      if (!settled) finish({ error: new Error(`${mqttUrl} closed the connection while registering`) });
    });
    client.on('message', (topic, payload) => {
      if (topic !== agentRegisterTopics.registered(areaId, clientId)) return;
      let answer: ReturnType<typeof AgentRegisteredSchema.parse>;
      try {
        answer = AgentRegisteredSchema.parse(JSON.parse(payload.toString('utf8')));
      } catch {
        return finish({ error: new Error('the cloud answered the registration with something unreadable') });
      }
      if (!answer.ok)
        return finish({ error: new Error(`the cloud refused the registration: ${answer.error}`) });
      logger.info({ device_id: answer.device_id, client_id: clientId }, 'registered with the Agent Key');
      finish({
        account: { device_id: answer.device_id, username: answer.username, password: answer.password },
      });
    });
    client.once('connect', () => {
      void (async () => {
        try {
          await client.subscribeAsync(agentRegisterTopics.registered(areaId, clientId), { qos: 1 });
          await client.publishAsync(status, 'online', { qos: 1, retain: true });
          const hello: HelloMessage = {
            computer_name: (options.computerName ?? hostname()).slice(0, 128),
            version: COLLECTOR_VERSION,
          };
          await client.publishAsync(agentTopics.hello(areaId, clientId), JSON.stringify(hello), {
            qos: 1,
            retain: true,
          });
          const request: AgentRegister = { name: options.fboxName, kind: 'air' };
          // Said first: the answer can arrive before the broker acknowledges the request.
          logger.info({ client_id: clientId, fbox_name: options.fboxName }, 'registering with the Agent Key');
          await client.publishAsync(agentRegisterTopics.register(areaId, clientId), JSON.stringify(request), {
            qos: 1,
          });
        } catch (error) {
          finish({ error: new Error(`cannot register with ${mqttUrl}: ${(error as Error).message}`) });
        }
      })();
    });
  });
};

/**
 * Whether the broker takes a kept account: `refused` on a refused login (its FBOX was deleted, or its
 * password changed), `unknown` when the broker cannot be reached (the gateway keeps trying then).
 */
export const probeAccount = (
  mqttUrl: string,
  account: GatewayAccount,
  timeoutMs: number,
  mqtt: Partial<IClientOptions> = {},
): Promise<'accepted' | 'refused' | 'unknown'> =>
  new Promise((resolve) => {
    const client = connect(mqttUrl, {
      clientId: account.device_id,
      username: account.username,
      password: account.password,
      clean: true,
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: timeoutMs,
      ...mqtt,
    });
    let settled = false;
    const settle = (outcome: 'accepted' | 'refused' | 'unknown') => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.end(true, () => resolve(outcome));
    };
    const timer = setTimeout(() => settle('unknown'), timeoutMs);
    client.once('connect', () => settle('accepted'));
    client.on('error', (error) => {
      const code = (error as { code?: unknown }).code;
      settle(typeof code === 'number' && refusedLogin.includes(code) ? 'refused' : 'unknown');
    });
    client.on('close', () => settle('unknown'));
  });

/**
 * The config with its cloud account complete: as given for an existing FBOX; with the Agent Key,
 * the account kept in `gateway.json` from an earlier registration, else one obtained now (and kept).
 */
export const resolveCloudAccount = async (
  config: CollectorConfig,
  options: { logger: Logger; timeoutMs?: number; host?: string; mqtt?: Partial<IClientOptions> },
): Promise<CollectorConfig> => {
  const { cloud } = config;
  if (cloud.agent_key === undefined || cloud.area_id === undefined) return config;
  const host = options.host ?? hostname();
  const clientId = agentClientId(cloud.area_id, cloud.agent_id, host);
  let account = await readGatewayAccount(config.state_dir, cloud.area_id, clientId);
  const file = gatewayFile(config.state_dir);
  if (
    account &&
    (await probeAccount(
      cloud.mqtt_url,
      account,
      Math.min(options.timeoutMs ?? 30_000, 10_000),
      options.mqtt,
    )) === 'refused'
  ) {
    // Its FBOX was deleted or its password changed: registering again gets a new box, or the
    // current account of the same one (a revoked key is refused there, with the reason).
    options.logger.warn(
      { device_id: account.device_id, file },
      'the cloud refused the kept FBOX account; registering again',
    );
    account = null;
  }
  if (account) {
    options.logger.info({ device_id: account.device_id, file }, 'using the FBOX registered before');
  } else {
    account = await registerAgent({
      mqttUrl: cloud.mqtt_url,
      areaId: cloud.area_id,
      agentKey: cloud.agent_key,
      clientId,
      fboxName: cloud.fbox_name ?? (host.trim().slice(0, 50).trim() || 'collector'),
      ...(cloud.computer_name !== undefined && { computerName: cloud.computer_name }),
      logger: options.logger,
      ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
      ...(options.mqtt && { mqtt: options.mqtt }),
    });
    await writeGatewayAccount(config.state_dir, { area_id: cloud.area_id, client_id: clientId, ...account });
  }
  return { ...config, cloud: { ...cloud, ...account } };
};
