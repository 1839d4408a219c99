import type { MinerTelemetry } from '@fbox/contracts';
import { noFigures } from './reading.js';
import type { KnownMiner } from './registry.js';

/** The protocol's length limit of each text field (a longer one would get the whole message refused). */
const textLimits = {
  sn: 64,
  ip: 64,
  worker: 128,
  model: 64,
  brand: 64,
  pool: 128,
  pool_address: 256,
  firmware: 64,
  fault: 64,
} as const;

/** Cuts a miner's text fields to the protocol's limits. */
export const fitText = (miner: MinerTelemetry): MinerTelemetry => {
  const fitted = { ...miner };
  for (const [key, max] of Object.entries(textLimits) as [keyof typeof textLimits, number][])
    fitted[key] = fitted[key].slice(0, max);
  return fitted;
};

/** A miner that did not answer, as reported: what is known of it, offline, every number "no reading". */
export const offlineTelemetry = (miner: KnownMiner, outlet: number | null): MinerTelemetry =>
  fitText({
    sn: miner.sn,
    ip: miner.host,
    worker: miner.worker,
    model: miner.model,
    brand: miner.brand,
    pool: miner.pool,
    pool_address: miner.pool_address,
    firmware: miner.firmware,
    tank_no: null,
    outlet,
    online: false,
    ...noFigures,
  });
