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
export {
  type CollectorConfig,
  type CollectorConfigInput,
  ConfigError,
  ConfigSchema,
  loadConfig,
  parseConfig,
} from './config.js';
export { COLLECTOR_VERSION, Gateway, MINERS_PER_MESSAGE } from './gateway.js';
export { expandRange, parseIpRange } from './ip-range.js';
export { type Logger, lineLogger, silentLogger } from './logger.js';
export type { Endpoint, Identified, MinerProtocol } from './protocol.js';
export { type MinerReading, NO_READING } from './reading.js';
export { type KnownMiner, Registry } from './registry.js';
