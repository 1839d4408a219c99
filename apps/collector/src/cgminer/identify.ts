import { type ApiObject, num, section } from './parse.js';

/**
 * Which CGMiner-family firmware answers, from its `version` reply (and `stats`' first element on
 * BMMiner, which repeats it):
 * - Antminer stock firmware: `BMMiner` (older, S9/T9/S17) or `CGMiner` (S19 and later) with
 *   `Type: "Antminer S19j Pro"`;
 * - Avalon (Canaan cgminer): `PROD` / `MODEL` (`AvalonMiner 1246` / `1246`), `DNA`, `MAC`, `LVERSION`;
 * - Braiins OS in its CGMiner-compatible mode: `BOSminer` or `BOSer` in VERSION;
 * - anything else speaking the API: plain `cgminer`.
 */
export type CgminerFamily = 'antminer' | 'avalon' | 'braiins' | 'cgminer';

export interface Identity {
  family: CgminerFamily;
  brand: string;
  model: string;
  firmware: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** `Antminer S19j Pro` → `S19j Pro`; `AvalonMiner 1246` → `1246`. */
const stripBrand = (model: string, brand: RegExp): string => model.replace(brand, '').trim();

export const identify = (version: ApiObject | null, stats?: ApiObject | null): Identity => {
  const v = section(version, 'VERSION')[0] ?? {};
  const s0 = section(stats, 'STATS')[0] ?? {};
  const type = text(v.Type) || text(s0.Type);
  if (/^antminer/i.test(type) || 'BMMiner' in v || 'BMMiner' in s0) {
    return {
      family: 'antminer',
      brand: 'Antminer',
      model: stripBrand(type, /^antminer\s*/i) || 'Antminer',
      firmware: text(s0.CompileTime) || text(v.CompileTime) || text(v.BMMiner) || text(v.CGMiner),
    };
  }
  if ('PROD' in v || 'DNA' in v || /avalon/i.test(text(v.MODEL))) {
    const prod = text(v.PROD);
    const model = text(v.MODEL);
    return {
      family: 'avalon',
      brand: 'Avalon',
      model: model ? (/^\d+$/.test(model) ? `A${model}` : model) : stripBrand(prod, /^avalon(miner)?\s*/i),
      firmware: text(v.LVERSION) || text(v.BVERSION) || text(v.CGVERSION) || text(v.CGMiner),
    };
  }
  const bos = text(v.BOSminer) || text(v.BOSer);
  if (bos) {
    return { family: 'braiins', brand: 'Braiins OS', model: '', firmware: bos };
  }
  return {
    family: 'cgminer',
    brand: '',
    model: type || text(v.Miner) || 'cgminer',
    firmware: text(v.CGMiner) || text(v.Miner) || String(num(v.API) ?? ''),
  };
};

/** The commands one poll asks for, in one combined request where the firmware takes `+`. */
export const pollCommands: Record<CgminerFamily, string[]> = {
  antminer: ['version', 'summary', 'stats', 'pools'],
  avalon: ['version', 'summary', 'stats', 'pools', 'devs'],
  braiins: ['version', 'summary', 'pools', 'devs', 'devdetails', 'temps', 'fans', 'tunerstatus'],
  cgminer: ['version', 'summary', 'stats', 'pools', 'devs'],
};
