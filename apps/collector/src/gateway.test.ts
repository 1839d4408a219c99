import { type MinerTelemetry, TelemetryMessageSchema } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { fitText } from './collector.js';
import { Gateway, telemetryMessages } from './gateway.js';
import { silentLogger } from './logger.js';

const miner = (i: number): MinerTelemetry => ({
  sn: `SN${i}`,
  ip: '10.0.0.1',
  worker: 'acct.1',
  model: 'S19j Pro',
  brand: 'Antminer',
  pool: 'btc.viabtc.io',
  pool_address: 'stratum+tcp://btc.viabtc.io:3333',
  firmware: '2021',
  tank_no: null,
  outlet: null,
  online: true,
  mode: 'high',
  chip_avg_temp: 60,
  chip_max_temp: 70,
  hashrate_theoretical: 104,
  hashrate_realtime: 104.5,
  hashrate_avg: 104.2,
  power_w: -999,
  fault: '',
  uptime_s: 3600,
});

describe('telemetry messages', () => {
  it('split a report over messages of at most 5,000 miners, each valid, seq consecutive, one ts', () => {
    const messages = telemetryMessages(
      Array.from({ length: 12_001 }, (_, i) => miner(i)),
      1000,
      1735689600000,
    );
    expect(messages.map((m) => [m.seq, m.ts, m.miners.length])).toEqual([
      [1000, 1735689600000, 5000],
      [1001, 1735689600000, 5000],
      [1002, 1735689600000, 2001],
    ]);
    for (const message of messages) expect(TelemetryMessageSchema.safeParse(message).success).toBe(true);
    expect(messages[0]!.box).toEqual({
      temperature: -999,
      humidity: -999,
      voltage: [-999, -999, -999],
      power_kw: -999,
      meters: [],
    });
  });

  it('send one message with no miners, so the box stays online', () => {
    expect(telemetryMessages([], 5, 6)).toEqual([expect.objectContaining({ seq: 5, ts: 6, miners: [] })]);
  });
});

describe('gateway connection', () => {
  it('backs off between reconnection attempts, doubling the pause', async () => {
    const gateway = new Gateway({
      brokerUrl: 'mqtt://127.0.0.1:1',
      deviceId: 'FBTEST',
      now: Date.now,
      logger: silentLogger,
      execute: async (command) => ({ id: command.id, ok: true }),
      reconnectPeriodMs: 50,
      maxReconnectPeriodMs: 400,
    });
    await expect(gateway.start(1600)).rejects.toThrow(
      /no connection to mqtt:\/\/127\.0\.0\.1:1 within 1600 ms/,
    );
    // Pauses 50, 100, 200, 400, 400 … ms: about 5 attempts in 1.6 s (a fixed 50 ms pause makes ~30).
    expect(gateway.stats.reconnects).toBeGreaterThanOrEqual(3);
    expect(gateway.stats.reconnects).toBeLessThanOrEqual(8);
    await gateway.stop();
  });
});

describe('text limits', () => {
  it('cut over-long firmware strings so the message is not refused whole', () => {
    const long = { ...miner(1), firmware: 'x'.repeat(300), pool_address: `stratum+tcp://${'p'.repeat(300)}` };
    const message = telemetryMessages([fitText(long)], 1, 2)[0]!;
    expect(TelemetryMessageSchema.safeParse(message).success).toBe(true);
    expect(message.miners[0]!.firmware).toHaveLength(64);
  });
});
