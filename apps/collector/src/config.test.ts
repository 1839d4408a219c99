import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseConfig, scanTargets } from './config.js';
import { expandRange, parseIpRange } from './ip-range.js';

const cloud = {
  mqtt_url: 'mqtt://cloud.example.com:1883',
  device_id: 'FB0001',
  username: 'gw-FB0001',
  password: 'pw',
};

const errorOf = (raw: unknown): string => {
  try {
    parseConfig(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('config accepted');
};

describe('config', () => {
  it('fills defaults and reads every scan form', () => {
    const config = parseConfig({
      cloud,
      scan: [
        { range: '10.0.0.0/30' },
        { range: '10.0.1.10-10.0.1.12', port: 14028 },
        { range: '10.0.2.7', ports: [14028, 14433] },
      ],
      protocols: { cgminer: { port: 4029 }, whatsminer: { password: 'later' } },
    });
    expect(config).toMatchObject({
      poll_interval_s: 30,
      scan_interval_s: 600,
      concurrency: { poll: 200, scan: 256 },
      timeouts: { connect_ms: 2000, request_ms: 5000, scan_ms: 1500 },
      buffer: { max_bytes: 256 * 1024 ** 2 },
      protocols: {
        cgminer: { enabled: true, port: 4029 },
        whatsminer: { enabled: true, port: 4028, password: 'later' },
        whatsminer_v3: { enabled: true, port: 4433, account: 'super', password: 'admin' },
        antminer_web: { enabled: true, port: 80, username: 'root', password: 'root' },
      },
      pdus: [],
      outlet_map: {},
    });
    const all = ['whatsminer', 'cgminer', 'whatsminer-v3'];
    const targets = scanTargets(config);
    expect(targets.map((t) => [expandRange(t.range), t.probes, t.named])).toEqual([
      [
        ['10.0.0.1', '10.0.0.2'],
        [
          { port: 4028, protocols: ['whatsminer'] },
          { port: 4029, protocols: ['cgminer'] },
          { port: 4433, protocols: ['whatsminer-v3'] },
        ],
        false,
      ],
      [['10.0.1.10', '10.0.1.11', '10.0.1.12'], [{ port: 14028, protocols: all }], true],
      [
        ['10.0.2.7'],
        [
          { port: 14028, protocols: all },
          { port: 14433, protocols: all },
        ],
        true,
      ],
    ]);
  });

  it("probes on each enabled protocol's own port, Whatsminer v2 before cgminer on a shared one", () => {
    const config = parseConfig({
      cloud,
      scan: [{ range: '10.0.0.1' }],
      protocols: { whatsminer_v3: { enabled: false } },
    });
    expect(scanTargets(config)[0]!.probes).toEqual([{ port: 4028, protocols: ['whatsminer', 'cgminer'] }]);
  });

  it('reads PDUs and the outlet map, checked against each other', () => {
    const pdus = [{ name: 'rack-a', host: '10.0.8.2', vendor: 'apc', outlets: 8, first_outlet: 1 }];
    const config = parseConfig({ cloud, scan: [{ range: '10.0.0.1' }], pdus, outlet_map: { 'AM-1': 3 } });
    expect(config.pdus[0]).toMatchObject({ name: 'rack-a', port: 161, version: '2c' });
    expect(config.outlet_map).toEqual({ 'AM-1': 3 });
    expect(errorOf({ cloud, scan: [{ range: '10.0.0.1' }], pdus, outlet_map: { '10.0.1.7': 9 } })).toBe(
      'collector.yaml: outlet_map.10.0.1.7: "10.0.1.7" → outlet 9: no configured PDU has it (pdus cover 1–8 (rack-a))',
    );
  });

  it('stops on a wrong key with one line naming it', () => {
    expect(errorOf({ cloud, scan: [{ range: '10.0.0.300' }] })).toBe(
      'collector.yaml: scan[0].range: not an IP range',
    );
    expect(errorOf({ cloud, scan: [{ range: '10.0.0.9-10.0.0.1' }] })).toBe(
      'collector.yaml: scan[0].range: range ends before it starts',
    );
    expect(errorOf({ cloud, scan: [{ range: '10.0.0.0/8' }] })).toMatch(
      /^collector\.yaml: scan\[0\]\.range: more than 65536/,
    );
    expect(errorOf({ cloud: { ...cloud, device_id: 'no spaces' }, scan: [{ range: '10.0.0.1' }] })).toMatch(
      /^collector\.yaml: cloud\.device_id: /,
    );
    expect(errorOf({ cloud: { mqtt_url: cloud.mqtt_url }, scan: [{ range: '10.0.0.1' }] })).toBe(
      'collector.yaml: cloud.device_id: missing',
    );
    expect(errorOf({ cloud, scan: [{ range: '10.0.0.1', prot: 4028 }] })).toBe(
      'collector.yaml: scan[0].prot: unknown key',
    );
    expect(errorOf({ cloud, scan: [{ range: '10.0.0.1' }], poll_interval_s: 1 })).toMatch(
      /^collector\.yaml: poll_interval_s: /,
    );
    expect(errorOf({ cloud, scan: [] })).toBe('collector.yaml: scan: name at least one range to scan');
    expect(errorOf({ cloud, scan: [{ range: '10.0.0.1', port: 4028, ports: [4028] }] })).toBe(
      'collector.yaml: scan[0].ports: give port or ports, not both',
    );
    expect(errorOf({ cloud, scan: [{ range: '10.0.0.1' }], protocols: { snmp: {} } })).toBe(
      'collector.yaml: protocols.snmp: unknown key',
    );
    expect(
      errorOf({ cloud, scan: [{ range: '10.0.0.1' }], protocols: { whatsminer_v3: { port: 0 } } }),
    ).toMatch(/^collector\.yaml: protocols\.whatsminer_v3\.port: /);
    for (const message of [errorOf({}), errorOf(null)]) expect(message.split('\n')).toHaveLength(1);
  });

  it('loads YAML files and names the file in its errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'collector-config-'));
    const good = join(dir, 'collector.yaml');
    writeFileSync(
      good,
      `cloud:\n  mqtt_url: mqtt://127.0.0.1:1883\n  device_id: FB1\nscan:\n  - range: 192.168.1.0/24\n    port: 4028\npoll_interval_s: 15\n`,
    );
    expect(loadConfig(good).poll_interval_s).toBe(15);
    const bad = join(dir, 'site.yaml');
    writeFileSync(
      bad,
      `cloud:\n  mqtt_url: mqtt://127.0.0.1:1883\n  device_id: FB1\nscan:\n  - range: 192.168.1\n`,
    );
    expect(() => loadConfig(bad)).toThrow('site.yaml: scan[0].range: not an IP range');
    writeFileSync(bad, 'cloud: [\n');
    expect(() => loadConfig(bad)).toThrow(/^site\.yaml: not valid YAML/);
  });

  it('parses ranges', () => {
    expect(parseIpRange('192.168.0.0/24')).toEqual({ first: 3232235521, last: 3232235774 });
    expect(parseIpRange('10.0.0.5/32')).toEqual({ first: 167772165, last: 167772165 });
    expect(parseIpRange('abc')).toBe('not an IP range');
    expect(parseIpRange('10.0.0.0/33')).toBe('not an IP range');
  });
});
