import { z } from 'zod';

/**
 * The shapes of stock Bitmain firmware's CGI answers and of the body set_miner_conf.cgi takes (see
 * the sources named in `client.ts`). Firmware varies in types (a work mode as "3" or 3, fan control
 * as true or "true"), so reads accept both and unknown fields are kept.
 */

/** `miner-mode` / `bitmain-work-mode` values of stock firmware. */
export const ANTMINER_WORK_MODE = { normal: 0, sleep: 1, lowPower: 3 } as const;
export type AntminerWorkMode = keyof typeof ANTMINER_WORK_MODE;

const text = z.union([z.string(), z.number()]).transform(String);

export const AntminerPoolSchema = z.object({
  url: z.string(),
  user: z.string(),
  pass: z.string().default(''),
});
export type AntminerPool = z.infer<typeof AntminerPoolSchema>;

/** get_system_info.cgi; other fields vary by model and are kept as they come. */
export const AntminerSystemInfoSchema = z.looseObject({
  minertype: z.string(),
  serinum: z.string().optional(),
  macaddr: z.string().optional(),
  hostname: z.string().optional(),
  ipaddress: z.string().optional(),
  system_filesystem_version: z.string().optional(),
  firmware_type: z.string().optional(),
});
export type AntminerSystemInfo = z.infer<typeof AntminerSystemInfoSchema>;

/** get_miner_conf.cgi (the firmware's bmminer.conf); unknown fields are kept. */
export const AntminerMinerConfSchema = z.looseObject({
  pools: z.array(AntminerPoolSchema),
  'bitmain-fan-ctrl': z.union([z.boolean(), z.string(), z.number()]).optional(),
  'bitmain-fan-pwm': text.optional(),
  'bitmain-freq-level': text.optional(),
  'bitmain-work-mode': text.optional(),
});
export type AntminerMinerConf = z.infer<typeof AntminerMinerConfSchema>;

/** The body set_miner_conf.cgi takes, as the firmware's own page sends it. */
export interface AntminerSetMinerConf {
  'bitmain-fan-ctrl'?: boolean;
  'bitmain-fan-pwm'?: string;
  'freq-level'?: string;
  'miner-mode': number;
  pools: AntminerPool[];
}

/** What set_miner_conf.cgi and its kin answer: `{"stats":"success","code":"M000","msg":"OK!"}`. */
export const CgiAnswerSchema = z.looseObject({
  stats: z.string(),
  code: z.string().optional(),
  msg: z.string().optional(),
});

/** How the firmware's page sends an unused pool slot. */
export const EMPTY_POOL: AntminerPool = { url: '', user: '', pass: '' };

/** The work mode a conf shows; "" or absent is the firmware's default, normal. */
export const workModeOf = (conf: AntminerMinerConf): number => {
  const mode = Number.parseInt(conf['bitmain-work-mode'] ?? '', 10);
  return Number.isNaN(mode) ? ANTMINER_WORK_MODE.normal : mode;
};

/** The set_miner_conf body that rewrites `conf` as it is: only fields the read had are sent. */
export const toSetMinerConf = (conf: AntminerMinerConf): AntminerSetMinerConf => {
  const fanCtrl = conf['bitmain-fan-ctrl'];
  return {
    ...(fanCtrl !== undefined && { 'bitmain-fan-ctrl': fanCtrl === true || String(fanCtrl) === 'true' }),
    ...(conf['bitmain-fan-pwm'] !== undefined && { 'bitmain-fan-pwm': conf['bitmain-fan-pwm'] }),
    ...(conf['bitmain-freq-level'] !== undefined && { 'freq-level': conf['bitmain-freq-level'] }),
    'miner-mode': workModeOf(conf),
    pools: [0, 1, 2].map((i) => {
      const pool = conf.pools[i] ?? EMPTY_POOL;
      return { url: pool.url, user: pool.user, pass: pool.pass };
    }),
  };
};
