export { type AntminerWebActions, antminerWebActions } from './antminer-web/actions.js';
export { AntminerWeb, type AntminerWebOptions } from './antminer-web/client.js';
export { type FakeWeb, type FakeWebOptions, startFakeWeb } from './antminer-web/fake-web.js';
export { ApiError, rawRequest } from './cgminer/client.js';
export {
  type FakeBehaviour,
  type FakeFlavor,
  type FakeMiner,
  type FakeMinerOptions,
  startFakeMiner,
} from './cgminer/fake-miner.js';
export { type CgminerFamily, type Identity, identify } from './cgminer/identify.js';
export { activePool, poolHost, type Replies, toReading } from './cgminer/map.js';
export { hashrateOf, parseBracketFields, parseJsonReply, repairJson, toTeraHash } from './cgminer/parse.js';
export { CgminerProtocol } from './cgminer/protocol.js';
export { Collector, type CollectorOptions, type CycleResult, startCollector } from './collector.js';
export { CommandRunner, type CommandRunnerOptions } from './commands.js';
export {
  type CollectorConfig,
  type CollectorConfigInput,
  ConfigError,
  ConfigSchema,
  loadConfig,
  parseConfig,
  probeOrder,
  scanTargets,
} from './config.js';
export { COLLECTOR_VERSION, Gateway, MINERS_PER_MESSAGE } from './gateway.js';
export { expandRange, parseIpRange } from './ip-range.js';
export { type Logger, lineLogger, silentLogger } from './logger.js';
export { type OutletStatus, PduBank } from './pdu/bank.js';
export { outletOf } from './pdu/config.js';
export { type FakePdu, type FakePduOptions, pduEntryFor, startFakePdu } from './pdu/fake-pdu.js';
export type { Endpoint, Identified, MinerProtocol } from './protocol.js';
export { antminerWebOf, driverOf, type MinerDriver, minerProtocols } from './protocols.js';
export { type MinerReading, NO_READING } from './reading.js';
export { type GatewayAccount, resolveCloudAccount } from './register.js';
export { type KnownMiner, Registry } from './registry.js';
export { type LoggedEvent, recordingLogger } from './test-logger.js';
export { type FakeWhatsminerV2, startFakeWhatsminerV2 } from './whatsminer/fake-v2.js';
export { type FakeWhatsminerV3, startFakeWhatsminerV3 } from './whatsminer/fake-v3.js';
export { WhatsminerV2Protocol } from './whatsminer/protocol-v2.js';
export { WhatsminerV3Protocol } from './whatsminer/protocol-v3.js';
