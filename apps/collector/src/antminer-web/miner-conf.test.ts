import { describe, expect, it } from 'vitest';
import { AntminerMinerConfSchema, toSetMinerConf } from './miner-conf.js';

describe('set_miner_conf body from a get_miner_conf answer', () => {
  it('maps the read fields to the names the page posts, as types the firmware takes', () => {
    const conf = AntminerMinerConfSchema.parse({
      pools: [{ url: 'stratum+tcp://a:1', user: 'w', pass: 'x' }],
      'bitmain-fan-ctrl': 'true',
      'bitmain-fan-pwm': 70,
      'bitmain-freq-level': '95',
      'bitmain-work-mode': 3,
      'bitmain-voltage': '1400',
    });
    expect(toSetMinerConf(conf)).toEqual({
      'bitmain-fan-ctrl': true,
      'bitmain-fan-pwm': '70',
      'freq-level': '95',
      'miner-mode': 3,
      pools: [
        { url: 'stratum+tcp://a:1', user: 'w', pass: 'x' },
        { url: '', user: '', pass: '' },
        { url: '', user: '', pass: '' },
      ],
    });
  });

  it('reads an empty work mode as normal and sends no field the miner did not show', () => {
    const conf = AntminerMinerConfSchema.parse({ pools: [], 'bitmain-work-mode': '' });
    expect(toSetMinerConf(conf)).toEqual({
      'miner-mode': 0,
      pools: [0, 1, 2].map(() => ({ url: '', user: '', pass: '' })),
    });
  });

  it('refuses an answer without pools', () => {
    expect(AntminerMinerConfSchema.safeParse({ 'bitmain-work-mode': '0' }).success).toBe(false);
  });
});
