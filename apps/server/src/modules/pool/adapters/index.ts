import { createAntpoolAdapter } from './antpool.js';
import { createBraiinsAdapter } from './braiins.js';
import type { PoolAdapter, PoolAdapterOptions, PoolKind } from './pool-adapter.js';

export * from './pool-adapter.js';

/**
 * How to build each pool's adapter. A new pool is one file exporting its factory and one line here
 * (plus its name in `PoolKind` and, when people write it differently, in `poolNames`).
 */
export const poolAdapterFactories: Record<PoolKind, (options?: PoolAdapterOptions) => PoolAdapter> = {
  braiins: createBraiinsAdapter,
  antpool: createAntpoolAdapter,
};

/** The adapters at the pools' public addresses. */
export const poolAdapters: Record<PoolKind, PoolAdapter> = {
  braiins: createBraiinsAdapter(),
  antpool: createAntpoolAdapter(),
};

/** Names users type in a subaccount's "pool" field, squeezed to lower-case letters and digits. */
const poolNames: Record<string, PoolKind> = {
  braiins: 'braiins',
  braiinspool: 'braiins',
  slushpool: 'braiins',
  antpool: 'antpool',
};

/**
 * The adapter kind of a stored pool name ("Braiins Pool", "AntPool", "slush pool"), or null when
 * no adapter speaks that pool's API (its revenue is then estimated).
 */
export const poolKindOf = (pool: string): PoolKind | null =>
  poolNames[pool.toLowerCase().replace(/[^a-z0-9]/g, '')] ?? null;
