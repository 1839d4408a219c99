import { z } from 'zod';
import { pduVendorNames } from './vendors.js';

/**
 * The `pdus` and `outlet_map` sections of `collector.yaml`: which switched PDUs the collector
 * drives over SNMP, which FBOX-wide outlet numbers (1–10000, as the cloud's `pdu.outlet` command
 * and telemetry's `outlet` use them) each one's outlets take, and which miner hangs on which
 * outlet. A PDU's outlet 1 is `first_outlet`; its outlet n is `first_outlet + n - 1`.
 */

/** The FBOX's outlet numbers run 1..10000. */
export const MAX_OUTLET = 10_000;

/** The write community when none is set: APC's factory default (its read-only one is `public`). */
export const DEFAULT_COMMUNITY = 'private';

const outletNumber = z
  .number()
  .int('a whole number')
  .min(1, `an outlet number 1–${MAX_OUTLET}`)
  .max(MAX_OUTLET, `an outlet number 1–${MAX_OUTLET}`);

/** RFC 3414's password-to-key wants at least 8 characters; most agents refuse shorter ones. */
const v3Key = z.string().min(8, 'at least 8 characters').max(128);

const V3Schema = z
  .object({
    user: z.string().min(1, 'missing').max(32),
    /** What the PDU's SNMPv3 user demands. */
    level: z.enum(['noAuthNoPriv', 'authNoPriv', 'authPriv']).default('authPriv'),
    auth_protocol: z.enum(['md5', 'sha']).default('sha'),
    auth_key: v3Key.optional(),
    /** `des` needs Node started with `--openssl-legacy-provider` (OpenSSL 3 disables DES). */
    priv_protocol: z.enum(['des', 'aes']).default('aes'),
    priv_key: v3Key.optional(),
  })
  .strict()
  .superRefine((v3, ctx) => {
    if (v3.level !== 'noAuthNoPriv' && v3.auth_key === undefined)
      ctx.addIssue({ code: 'custom', path: ['auth_key'], message: `missing (level ${v3.level})` });
    if (v3.level === 'authPriv' && v3.priv_key === undefined)
      ctx.addIssue({ code: 'custom', path: ['priv_key'], message: 'missing (level authPriv)' });
  });

/** One switched PDU. */
export const PduSchema = z
  .object({
    /** Named in logs and errors; unique. */
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, '1–64 of A–Z a–z 0–9 _ . -'),
    /** The PDU's management address. */
    host: z
      .string()
      .regex(/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/, 'an IPv4 address or host name'),
    port: z.number().int().min(1).max(65_535).default(161),
    /** YAML reads `version: 3` as a number: both spellings are taken. */
    version: z
      .union([z.literal('2c'), z.literal('3'), z.literal(3)], { error: '2c or 3' })
      .default('2c')
      .transform((v) => String(v) as '2c' | '3'),
    /** v2c only: a community with write access (default `private`); reads use it too. */
    community: z.string().min(1).max(64).optional(),
    /** v3 only. */
    v3: V3Schema.optional(),
    vendor: z.enum(pduVendorNames, { error: `one of ${pduVendorNames.join(', ')}` }),
    /** How many outlets the PDU has (its outlet numbers 1..outlets). */
    outlets: z.number().int().min(1).max(256),
    /** The FBOX-wide number of this PDU's outlet 1. */
    first_outlet: outletNumber,
    /** One SNMP request's wait for an answer, ms. */
    timeout_ms: z.number().int().min(100).max(60_000).default(2000),
    /** Times a request is sent again after a time-out. */
    retries: z.number().int().min(0).max(5).default(1),
  })
  .strict()
  .superRefine((pdu, ctx) => {
    const last = pdu.first_outlet + pdu.outlets - 1;
    if (last > MAX_OUTLET)
      ctx.addIssue({
        code: 'custom',
        path: ['first_outlet'],
        message: `outlets ${pdu.first_outlet}–${last} pass the last FBOX outlet ${MAX_OUTLET}`,
      });
    if (pdu.version === '3' && !pdu.v3)
      ctx.addIssue({ code: 'custom', path: ['v3'], message: 'missing (version 3 needs the v3 user)' });
    if (pdu.version === '3' && pdu.community !== undefined)
      ctx.addIssue({ code: 'custom', path: ['community'], message: 'only for version 2c' });
    if (pdu.version === '2c' && pdu.v3)
      ctx.addIssue({ code: 'custom', path: ['v3'], message: 'only for version 3' });
  });

export type PduConfig = z.infer<typeof PduSchema>;
export type PduConfigInput = z.input<typeof PduSchema>;

/** FBOX-wide outlets `first`–`last` of a PDU. */
export const outletRange = (pdu: Pick<PduConfig, 'first_outlet' | 'outlets'>) =>
  ({ first: pdu.first_outlet, last: pdu.first_outlet + pdu.outlets - 1 }) as const;

const rangeText = (pdu: Pick<PduConfig, 'first_outlet' | 'outlets'>): string => {
  const { first, last } = outletRange(pdu);
  return first === last ? `${first}` : `${first}–${last}`;
};

/** The `pdus` list: names unique, no PDU twice, no FBOX outlet number on two PDUs. */
export const PduConfigSchema = z.array(PduSchema).superRefine((pdus, ctx) => {
  pdus.forEach((pdu, i) => {
    for (let j = 0; j < i; j++) {
      const other = pdus[j]!;
      if (other.name === pdu.name) {
        ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `"${pdu.name}" is already pdus[${j}]` });
        return;
      }
      if (other.host === pdu.host && other.port === pdu.port) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'host'],
          message: `${pdu.host}:${pdu.port} is already pdu "${other.name}"`,
        });
        return;
      }
      const a = outletRange(pdu);
      const b = outletRange(other);
      if (a.first <= b.last && b.first <= a.last) {
        ctx.addIssue({
          code: 'custom',
          path: [i, 'first_outlet'],
          message: `outlets ${rangeText(pdu)} overlap pdu "${other.name}" (outlets ${rangeText(other)})`,
        });
        return;
      }
    }
  });
});

/** `"<miner sn or IP>": <FBOX-wide outlet number>`: what telemetry reports as each miner's `outlet`. */
export const OutletMapSchema = z.record(z.string().min(1).max(64), outletNumber);

export type OutletMap = z.infer<typeof OutletMapSchema>;

/** The part of a config this folder reads. */
interface PduSection {
  pdus: readonly Pick<PduConfig, 'name' | 'first_outlet' | 'outlets'>[];
  outlet_map: OutletMap;
}

/**
 * Every `outlet_map` entry must name an outlet some PDU has; the issue names the key. Exported so
 * that the whole config's schema can run it where both sections are in view.
 */
export const refineOutletMap = (section: PduSection, ctx: z.RefinementCtx): void => {
  const covered = section.pdus.map((pdu) => `${rangeText(pdu)} (${pdu.name})`).join(', ');
  for (const [key, outlet] of Object.entries(section.outlet_map)) {
    const onPdu = section.pdus.some((pdu) => {
      const { first, last } = outletRange(pdu);
      return outlet >= first && outlet <= last;
    });
    if (!onPdu)
      ctx.addIssue({
        code: 'custom',
        path: ['outlet_map', key],
        message: `"${key}" → outlet ${outlet}: no configured PDU has it (${covered ? `pdus cover ${covered}` : 'no pdus configured'})`,
      });
  }
};

/** `pdus` and `outlet_map` together, checked against each other. */
export const PduSectionSchema = z
  .object({
    pdus: PduConfigSchema.default([]),
    outlet_map: OutletMapSchema.default({}),
  })
  .strict()
  .superRefine(refineOutletMap);

export type PduSectionConfig = z.infer<typeof PduSectionSchema>;

/** The outlet a miner hangs on: by serial number first, then by IP; null when not mapped. */
export const outletOf = (map: OutletMap, miner: { sn: string; ip: string }): number | null => {
  for (const key of [miner.sn, miner.ip]) if (key && Object.hasOwn(map, key)) return map[key]!;
  return null;
};
