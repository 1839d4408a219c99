export { type FrameOptions, renderCameraFrame } from './camera-frame.js';
export { defaultControlPath } from './control.js';
export { Gateway, type GatewayOptions, type GatewayStats, type SilenceMode } from './gateway.js';
export { consoleLogger, type Logger, type LogLevel, silentLogger } from './logger.js';
export {
  type Brand,
  findModel,
  MINER_MODELS,
  type MinerModelSpec,
  modelsFor,
  POOLS,
  type PoolSpec,
  poolName,
} from './model/catalog.js';
export { type Clock, ManualClock, systemClock } from './model/clock.js';
export { MAX_INTERVAL_MS, MIN_INTERVAL_MS } from './model/commands.js';
export {
  FAULT_DEFAULT_DURATION_MS,
  FAULT_NAMES,
  FaultError,
  type FaultInfo,
  type FaultName,
  type FaultRequest,
  HIJACK_POOL_ADDRESS,
  HIJACK_WORKER,
} from './model/faults.js';
export {
  type CommandResult,
  FboxModel,
  type FboxSpec,
  type MinerPlacement,
  type ModelOptions,
} from './model/fbox.js';
export {
  type BoxKind,
  FAULT_WEIGHTS,
  Miner,
  type MinerFaultKind,
  type MinerMode,
  MODE_FACTORS,
  NO_READING,
  OVERCLOCK_FACTORS,
} from './model/miner.js';
export { hash32, mulberry32, Rng } from './model/random.js';
export { FAN_FULL_SPEED, Tank } from './model/tank.js';
export { type PoolApi, type PoolApiOptions, startPoolApi } from './pool-api.js';
export { FaultScenarios, type ScenarioOptions } from './scenarios.js';
export { fetchServerFboxes, type ServerFbox, type ServerSourceOptions } from './server-source.js';
export {
  type Simulator,
  type SimulatorFaultRequest,
  type SimulatorGatewaySpec,
  type SimulatorOptions,
  type SimulatorStats,
  startSimulator,
} from './simulator.js';
export { startZlmApi, type ZlmApi, type ZlmApiOptions, type ZlmStream } from './zlm-api.js';
