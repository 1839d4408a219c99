import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { silentLogger } from './logger.js';
import type { Identified } from './protocol.js';
import { NO_READING } from './reading.js';
import { Registry } from './registry.js';

const found = (sn: string): Identified => ({
  protocol: 'cgminer',
  family: 'antminer',
  reading: {
    sn,
    brand: 'Antminer',
    model: 'S19j Pro',
    firmware: '',
    worker: 'acct.001',
    pool: 'btc.viabtc.io',
    pool_address: 'stratum+tcp://btc.viabtc.io:3333',
    mode: 'high',
    chip_avg_temp: 64,
    chip_max_temp: 72,
    hashrate_theoretical: 104,
    hashrate_realtime: 104.5,
    hashrate_avg: 104.2,
    power_w: NO_READING,
    fault: '',
    uptime_s: 3600,
    fans: [],
  },
});

describe('registry: the state file', () => {
  it('writes the miners a first scan finds once, not once per miner', () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-'));
    const registry = new Registry(dir, silentLogger);
    const started = Date.now();
    for (let i = 0; i < 5000; i++)
      registry.observe(found(`AM-${i}`), { host: `10.0.${i >> 8}.${i & 255}`, port: 4028 }, started);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(registry.saves).toBe(0);
    expect(existsSync(join(dir, 'miners.json'))).toBe(false);
    registry.flush();
    registry.flush(); // nothing changed since: no second write
    expect(registry.saves).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, 'miners.json'), 'utf8')).miners).toHaveLength(5000);
    expect(new Registry(dir, silentLogger).size).toBe(5000);
  });

  it('writes a change no flush followed within the save delay', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-'));
    const registry = new Registry(dir, silentLogger);
    registry.observe(found('AM-1'), { host: '10.0.0.1', port: 4028 }, Date.now());
    registry.observe(found('AM-1'), { host: '10.0.0.1', port: 4028 }, Date.now()); // same: nothing to write
    await new Promise((resolve) => setTimeout(resolve, 2100));
    expect(registry.saves).toBe(1);
    expect(existsSync(join(dir, 'miners.json'))).toBe(true);
  });
});
