import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { OutletMapSchema, outletOf, PduConfigSchema, PduSchema, PduSectionSchema } from './config.js';

const rackA = { name: 'rack-a', host: '10.0.8.2', vendor: 'apc', outlets: 24, first_outlet: 1 };
const rackB = { name: 'rack-b', host: '10.0.8.3', vendor: 'apc', outlets: 24, first_outlet: 25 };

/** Each issue as `key.path: message`, the way the collector prints a config error. */
const issuesOf = (schema: z.ZodType, raw: unknown): string[] => {
  const result = schema.safeParse(raw);
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const path = [...issue.path, ...(issue.code === 'unrecognized_keys' ? issue.keys : [])]
      .map((part) => (typeof part === 'number' ? `[${part}]` : `.${String(part)}`))
      .join('')
      .replace(/^\./, '');
    return `${path}: ${issue.code === 'unrecognized_keys' ? 'unknown key' : issue.message}`;
  });
};

describe('pdu config', () => {
  it('fills the defaults of a v2c PDU and reads YAML’s numeric `version: 3`', () => {
    expect(PduSchema.parse(rackA)).toEqual({
      ...rackA,
      port: 161,
      version: '2c',
      timeout_ms: 2000,
      retries: 1,
    });
    const v3 = PduSchema.parse({
      ...rackB,
      version: 3,
      v3: { user: 'fbox', auth_key: 'k'.repeat(8), priv_key: 'p'.repeat(8) },
    });
    expect(v3).toMatchObject({
      version: '3',
      v3: { user: 'fbox', level: 'authPriv', auth_protocol: 'sha', priv_protocol: 'aes' },
    });
    expect(v3.community).toBeUndefined();
  });

  it('says which v3 key a security level lacks, and keeps v2c and v3 settings apart', () => {
    expect(
      issuesOf(PduConfigSchema, [{ ...rackA, version: '3', v3: { user: 'fbox', auth_key: 'short' } }]),
    ).toEqual(['[0].v3.auth_key: at least 8 characters', '[0].v3.priv_key: missing (level authPriv)']);
    expect(issuesOf(PduSchema, { ...rackA, version: '3' })).toEqual([
      'v3: missing (version 3 needs the v3 user)',
    ]);
    expect(
      issuesOf(PduSchema, {
        ...rackA,
        version: '3',
        community: 'private',
        v3: { user: 'u', level: 'noAuthNoPriv' },
      }),
    ).toEqual(['community: only for version 2c']);
    expect(issuesOf(PduSchema, { ...rackA, v3: { user: 'u', level: 'noAuthNoPriv' } })).toEqual([
      'v3: only for version 3',
    ]);
    expect(issuesOf(PduSchema, { ...rackA, version: '1' })).toEqual(['version: 2c or 3']);
  });

  it('names unknown keys, unknown vendors and outlets past 10000', () => {
    expect(issuesOf(PduSchema, { ...rackA, comunity: 'private' })).toEqual(['comunity: unknown key']);
    expect(issuesOf(PduSchema, { ...rackA, vendor: 'raritan' })).toEqual(['vendor: one of apc']);
    expect(issuesOf(PduSchema, { ...rackA, first_outlet: 9990 })).toEqual([
      'first_outlet: outlets 9990–10013 pass the last FBOX outlet 10000',
    ]);
    expect(issuesOf(PduSchema, { ...rackA, host: 'http://10.0.8.2' })).toEqual([
      'host: an IPv4 address or host name',
    ]);
  });

  it('refuses two PDUs on one outlet number, one name or one address', () => {
    expect(issuesOf(PduConfigSchema, [rackA, { ...rackB, first_outlet: 20 }])).toEqual([
      '[1].first_outlet: outlets 20–43 overlap pdu "rack-a" (outlets 1–24)',
    ]);
    expect(
      issuesOf(PduConfigSchema, [rackA, rackB, { ...rackB, name: 'rack-c', host: 'c', first_outlet: 48 }]),
    ).toEqual(['[2].first_outlet: outlets 48–71 overlap pdu "rack-b" (outlets 25–48)']);
    expect(issuesOf(PduConfigSchema, [rackA, { ...rackB, name: 'rack-a' }])).toEqual([
      '[1].name: "rack-a" is already pdus[0]',
    ]);
    expect(issuesOf(PduConfigSchema, [rackA, { ...rackB, host: rackA.host }])).toEqual([
      '[1].host: 10.0.8.2:161 is already pdu "rack-a"',
    ]);
    expect(issuesOf(PduConfigSchema, [rackA, { ...rackB, host: rackA.host, port: 1161 }])).toEqual([]);
  });

  it('refuses map entries on no PDU’s outlet, naming the key', () => {
    const section = {
      pdus: [rackA, rackB],
      outlet_map: { 'AM-0001': 3, '10.0.1.7': 48, 'AM-0002': 49 },
    };
    expect(issuesOf(PduSectionSchema, section)).toEqual([
      'outlet_map.AM-0002: "AM-0002" → outlet 49: no configured PDU has it (pdus cover 1–24 (rack-a), 25–48 (rack-b))',
    ]);
    expect(issuesOf(PduSectionSchema, { outlet_map: { '10.0.1.7': 5 } })).toEqual([
      'outlet_map.10.0.1.7: "10.0.1.7" → outlet 5: no configured PDU has it (no pdus configured)',
    ]);
    expect(issuesOf(OutletMapSchema, { 'AM-0001': 0, 'AM-0002': 2.5 })).toEqual([
      'AM-0001: an outlet number 1–10000',
      'AM-0002: a whole number',
    ]);
    expect(PduSectionSchema.parse({})).toEqual({ pdus: [], outlet_map: {} });
  });

  it('finds a miner’s outlet by serial number before IP', () => {
    const map = OutletMapSchema.parse({ 'AM-0001': 3, '10.0.1.7': 48 });
    expect(outletOf(map, { sn: 'AM-0001', ip: '10.0.1.7' })).toBe(3);
    expect(outletOf(map, { sn: 'AM-0009', ip: '10.0.1.7' })).toBe(48);
    expect(outletOf(map, { sn: 'constructor', ip: '10.0.1.8' })).toBeNull();
  });

  it('takes the example in README.md', () => {
    const readme = readFileSync(new URL('./README.md', import.meta.url), 'utf8');
    const example = readme.split('```yaml')[1]?.split('```')[0] ?? '';
    const section = PduSectionSchema.parse(parseYaml(example));
    expect(section.pdus.map((pdu) => [pdu.name, pdu.version, pdu.first_outlet])).toEqual([
      ['rack-a', '2c', 1],
      ['rack-b', '3', 25],
    ]);
    expect(outletOf(section.outlet_map, { sn: 'x', ip: '10.0.1.7' })).toBe(26);
  });
});
