import type { MinerListItem } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../lib/i18n';
import { minerColumns } from './miner-columns';

const miner = (status: 'online' | 'offline'): MinerListItem => ({
  id: 1,
  sn: 'SN1',
  worker: 'w1',
  model: 'S19',
  brand: 'Antminer',
  pool: 'pool',
  pool_address: 'stratum+tcp://pool:3333',
  ip: '10.0.0.1',
  firmware: 'fw',
  fbox_id: 1,
  fbox_name: 'Box',
  tank_id: null,
  tank_name: null,
  outlet: null,
  status,
  mode: 'high',
  fault: '',
  chip_avg_temp: 71.5,
  chip_max_temp: 80,
  hashrate_theoretical: 110,
  hashrate_realtime: 104.6,
  hashrate_avg: 100,
  hashrate_24h: 98,
  power_w: 3250,
  uptime_s: 3600,
  updated_at: 0,
  pool_hijacked: false,
});

/** What a column shows for a miner, as text. */
const shown = (key: string, m: MinerListItem) => {
  const column = minerColumns(i18n.t, {
    modeLabels: { high: 'High', low: 'Low' },
    statusOptions: [],
    faultText: (codes) => codes,
  }).find((c) => c.key === key)!;
  return String(column.render!(undefined, m, 0));
};

describe('miner columns', () => {
  it("show an offline miner's live readings as dashes, not its last values", () => {
    for (const key of ['hashrate_realtime', 'chip_avg_temp', 'chip_max_temp', 'power_w'])
      expect(shown(key, miner('offline'))).toBe('-');
    // Averages over time stay: they describe the past, not the present.
    expect(shown('hashrate_24h', miner('offline'))).not.toBe('-');
  });

  it('show an online miner’s readings with their units', () => {
    expect(shown('chip_max_temp', miner('online'))).toContain('°C');
    expect(shown('hashrate_realtime', miner('online'))).toContain('TH/s');
  });
});
