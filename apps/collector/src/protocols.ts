import { type AntminerWebActions, antminerWebActions } from './antminer-web/actions.js';
import { AntminerWeb } from './antminer-web/client.js';
import { CgminerProtocol } from './cgminer/protocol.js';
import { type CollectorConfig, type ProtocolName, scanningProtocols } from './config.js';
import type { CommandResult, Endpoint, MinerProtocol, PoolSetting } from './protocol.js';
import type { KnownMiner } from './registry.js';
import { WhatsminerV2Protocol } from './whatsminer/protocol-v2.js';
import { WhatsminerV3Protocol } from './whatsminer/protocol-v3.js';

/**
 * The enabled miner protocols, built from `collector.yaml`, in the order a scan tries them on one
 * address: Whatsminer v2 before cgminer (both answer on 4028, and the v2 probe tells a cgminer
 * apart at once), Whatsminer v3 on its own port.
 */
export const minerProtocols = (config: CollectorConfig): MinerProtocol[] => {
  const { timeouts, protocols } = config;
  const common = { connectTimeoutMs: timeouts.connect_ms, requestTimeoutMs: timeouts.request_ms };
  const build: Record<ProtocolName, (port: number) => MinerProtocol> = {
    whatsminer: (port) =>
      new WhatsminerV2Protocol({ ...common, defaultPort: port, password: protocols.whatsminer.password }),
    cgminer: (port) => new CgminerProtocol({ ...common, defaultPort: port }),
    'whatsminer-v3': (port) =>
      new WhatsminerV3Protocol({
        ...common,
        defaultPort: port,
        account: protocols.whatsminer_v3.account,
        password: protocols.whatsminer_v3.password,
      }),
  };
  return scanningProtocols(config).map(({ name, port }) => build[name](port));
};

/** The web CGI's write commands for Antminers read over CGMiner, when `protocols.antminer_web` is enabled. */
export const antminerWebOf = (config: CollectorConfig): AntminerWebActions | null => {
  const web = config.protocols.antminer_web;
  if (!web.enabled) return null;
  return antminerWebActions(
    new AntminerWeb({
      username: web.username,
      password: web.password,
      port: web.port,
      timeoutMs: web.timeout_ms,
      writeTimeoutMs: web.write_timeout_ms,
    }),
  );
};

/** What carries a command to one miner: its protocol's writes, the web CGI's for an Antminer. */
export interface MinerDriver {
  /** Named in "not supported by …" answers. */
  readonly name: string;
  restart(endpoint: Endpoint): Promise<CommandResult>;
  reboot?(endpoint: Endpoint): Promise<CommandResult>;
  setMode?(endpoint: Endpoint, mode: 'high' | 'low'): Promise<CommandResult>;
  setPool?(endpoint: Endpoint, pool: PoolSetting): Promise<CommandResult>;
}

/**
 * The driver of a known miner: the protocol it was found with; an Antminer read over the CGMiner
 * API (which cannot change mode or pools) takes reboot, mode and pool over its web CGI.
 */
export const driverOf = (
  protocol: MinerProtocol,
  miner: Pick<KnownMiner, 'family'>,
  web: AntminerWebActions | null,
): MinerDriver => {
  const own: MinerDriver = {
    name: protocol.name,
    restart: (endpoint) => protocol.restart(endpoint),
    ...(protocol.reboot && { reboot: protocol.reboot.bind(protocol) }),
    ...(protocol.setMode && { setMode: protocol.setMode.bind(protocol) }),
    ...(protocol.setPool && { setPool: protocol.setPool.bind(protocol) }),
  };
  if (protocol.name !== 'cgminer' || miner.family !== 'antminer') return own;
  if (!web) return { ...own, name: 'cgminer (protocols.antminer_web is disabled)' };
  return { ...own, ...web, name: 'cgminer with the Antminer web interface' };
};
