/** Miner models, firmware and pools the simulator picks from. Figures are the makers' nominal specs. */

export type Brand = 'Antminer' | 'Whatsminer' | 'Avalon';
export type Cooling = 'air' | 'hydro';

export interface MinerModelSpec {
  brand: Brand;
  model: string;
  /** Nominal hashrate at high (normal) mode, TH/s. */
  hashrateTh: number;
  /** Wall power at high mode, W. */
  powerW: number;
  /** Air-cooled models also run immersed in oil; hydro models need a water loop. */
  cooling: Cooling;
  /** SN prefix used for generated serial numbers. */
  snPrefix: string;
  firmware: readonly string[];
}

export const MINER_MODELS: readonly MinerModelSpec[] = [
  {
    brand: 'Antminer',
    model: 'Antminer S19 XP',
    hashrateTh: 140,
    powerW: 3010,
    cooling: 'air',
    snPrefix: 'JYZZB4',
    firmware: ['Antminer-S19XP-20230306', 'Antminer-S19XP-20231012'],
  },
  {
    brand: 'Antminer',
    model: 'Antminer S19j Pro',
    hashrateTh: 104,
    powerW: 3068,
    cooling: 'air',
    snPrefix: 'YNAHD7',
    firmware: ['Antminer-S19jPro-20220919', 'Antminer-S19jPro-20230511'],
  },
  {
    brand: 'Antminer',
    model: 'Antminer S21',
    hashrateTh: 200,
    powerW: 3500,
    cooling: 'air',
    snPrefix: 'FXDZE2',
    firmware: ['Antminer-S21-20240301', 'Antminer-S21-20240716'],
  },
  {
    brand: 'Antminer',
    model: 'Antminer S21 Hydro',
    hashrateTh: 335,
    powerW: 5360,
    cooling: 'hydro',
    snPrefix: 'HKYDR1',
    firmware: ['Antminer-S21Hyd-20240415', 'Antminer-S21Hyd-20240822'],
  },
  {
    brand: 'Whatsminer',
    model: 'Whatsminer M50S',
    hashrateTh: 126,
    powerW: 3276,
    cooling: 'air',
    snPrefix: 'HTM50S',
    firmware: ['20230308.16.Rel', '20231115.22.Rel'],
  },
  {
    brand: 'Whatsminer',
    model: 'Whatsminer M63S',
    hashrateTh: 390,
    powerW: 7215,
    cooling: 'hydro',
    snPrefix: 'HTM63S',
    firmware: ['20240120.18.Rel', '20240610.09.Rel'],
  },
  {
    brand: 'Avalon',
    model: 'Avalon A1366',
    hashrateTh: 130,
    powerW: 3250,
    cooling: 'air',
    snPrefix: 'AVA136',
    firmware: ['23102401_2b61cbd', '24032201_9c4fe3a'],
  },
];

export const findModel = (name: string): MinerModelSpec | undefined => {
  const wanted = name.trim().toLowerCase();
  return MINER_MODELS.find(
    (m) => m.model.toLowerCase() === wanted || m.model.toLowerCase().replace(/^\w+ /, '') === wanted,
  );
};

/** Models that fit a kind of box: hydro boxes take hydro miners, air and immersion boxes the others. */
export const modelsFor = (kind: 'air' | 'immersion' | 'hydro'): readonly MinerModelSpec[] =>
  MINER_MODELS.filter((m) => (kind === 'hydro' ? m.cooling === 'hydro' : m.cooling === 'air'));

export interface PoolSpec {
  name: string;
  address: string;
}

export const POOLS: readonly PoolSpec[] = [
  { name: 'ViaBTC', address: 'stratum+tcp://btc.viabtc.io:3333' },
  { name: 'F2Pool', address: 'stratum+tcp://btc.f2pool.com:1314' },
  { name: 'AntPool', address: 'stratum+tcp://stratum.antpool.com:3333' },
  { name: 'Foundry USA', address: 'stratum+tcp://stratum.foundryusapool.com:3333' },
];

/** The pool's display name for a stratum address: a known pool's name, else the host. */
export const poolName = (address: string): string => {
  const known = POOLS.find((p) => p.address === address);
  if (known) return known.name;
  const host = /^[a-z+]+:\/\/([^:/]+)/i.exec(address)?.[1];
  if (!host) return address.slice(0, 128);
  for (const p of POOLS) {
    const pHost = /^[a-z+]+:\/\/([^:/]+)/i.exec(p.address)?.[1];
    if (pHost && pHost.split('.').slice(-2).join('.') === host.split('.').slice(-2).join('.')) return p.name;
  }
  return host.slice(0, 128);
};
