import { describe, expect, it } from 'vitest';
import { type BoardMiner, minerBand, typicalPowerW } from './miner-colours';

const miner = (readings: Partial<BoardMiner> = {}): BoardMiner => ({
  id: 1,
  fbox_id: 1,
  tank_no: 1,
  slot: 1,
  sn: 'SN1',
  worker: 'w.1',
  ip: '10.0.0.1',
  model: 'S21',
  online: true,
  fault: '',
  chip_max_temp: 55,
  hashrate: 200,
  theoretical: 200,
  power_w: 3500,
  ...readings,
});

describe('minerBand', () => {
  it('colours by status: online, online with a fault, offline (a fault of an offline miner is stale)', () => {
    expect(minerBand('status', miner(), null)).toBe('online');
    expect(minerBand('status', miner({ fault: 'fan' }), null)).toBe('fault');
    expect(minerBand('status', miner({ online: false, fault: 'fan' }), null)).toBe('offline');
  });

  it('colours by hottest chip in bands starting at 60, 75 and 85 °C; no reading or offline is none', () => {
    const band = (chip_max_temp: number, online = true) =>
      minerBand('chip_temp', miner({ chip_max_temp, online }), null);
    expect([59.9, 60, 74.9, 75, 84.9, 85, 110].map((c) => band(c))).toEqual([
      'ok',
      'warm',
      'warm',
      'hot',
      'hot',
      'critical',
      'critical',
    ]);
    expect(band(-999)).toBe('none');
    expect(band(90, false)).toBe('none');
  });

  it('colours by realtime ÷ theoretical hashrate at 95, 80 and 50 %; without a theoretical, none', () => {
    const band = (hashrate: number, theoretical = 100) =>
      minerBand('hashrate_ratio', miner({ hashrate, theoretical }), null);
    expect([120, 95, 94.9, 80, 79.9, 50, 49.9, 0].map((h) => band(h))).toEqual([
      'full',
      'full',
      'fair',
      'fair',
      'low',
      'low',
      'poor',
      'poor',
    ]);
    expect(band(100, 0)).toBe('none');
    expect(band(-999)).toBe('none');
    expect(minerBand('hashrate_ratio', miner({ online: false }), null)).toBe('none');
  });

  it("colours by power against the board's typical miner: below half idle, to 90 % reduced, to 110 % typical", () => {
    const band = (power_w: number) => minerBand('power', miner({ power_w }), 3000);
    expect([1499, 1500, 2699, 2700, 3299, 3300].map(band)).toEqual([
      'idle',
      'reduced',
      'reduced',
      'typical',
      'typical',
      'heavy',
    ]);
    expect(band(-999)).toBe('none');
    expect(minerBand('power', miner(), null)).toBe('none');
  });
});

describe('typicalPowerW', () => {
  it('is the median of the online miners reporting power', () => {
    const miners = [1000, 3000, 3200, -999, 0].map((power_w) => miner({ power_w }));
    expect(typicalPowerW([...miners, miner({ power_w: 9000, online: false })])).toBe(3000);
    expect(typicalPowerW([miner({ power_w: 3000 }), miner({ power_w: 3400 })])).toBe(3200);
    expect(typicalPowerW([miner({ power_w: -999 })])).toBeNull();
  });
});
