import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { poolAdapters, poolKindOf } from './index.js';
import { readDecimal, sumDecimals, toThs } from './pool-values.js';

describe('pool values', () => {
  it('converts every SI hashrate unit to TH/s and refuses unknown ones', () => {
    expect(toThs(28_000, 'Gh/s')).toBeCloseTo(28, 12);
    expect(toThs(1.5, 'PH/s')).toBe(1500);
    expect(toThs(2, 'Eh/s')).toBe(2_000_000);
    expect(toThs(140, 'th')).toBe(140);
    expect(toThs(127_603_936_523_714, 'H/s')).toBeCloseTo(127.603936523714, 9);
    expect(toThs(1, 'Zh/s')).toBeNull();
    expect(toThs(1, 'shares')).toBeNull();
  });

  it('sums coin amounts exactly, whatever their decimals', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['0.00051284', '0.00002001', '0'])).toBe('0.00053285');
    expect(sumDecimals([])).toBe('0');
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 10n ** 14n }), { maxLength: 40 }), (satoshis) => {
        const asBtc = satoshis.map(
          (s) => readDecimal(`${s / 10n ** 8n}.${String(s % 10n ** 8n).padStart(8, '0')}`)!,
        );
        const total = satoshis.reduce((a, b) => a + b, 0n);
        const [whole, fraction = ''] = sumDecimals(asBtc).split('.');
        expect(BigInt(whole! + fraction.padEnd(8, '0'))).toBe(total);
      }),
    );
  });

  it('reads amounts sent as strings or numbers and rejects anything else', () => {
    expect(readDecimal('0.00010000')).toBe('0.0001');
    expect(readDecimal(0.00037884)).toBe('0.00037884');
    expect(readDecimal(' 12 ')).toBe('12');
    expect(readDecimal('-1')).toBeNull();
    expect(readDecimal('1e-8')).toBeNull();
    expect(readDecimal(null)).toBeNull();
  });
});

describe('pool registry', () => {
  it('finds the adapter of the names people store, and none for pools without one', () => {
    expect(poolKindOf('Braiins Pool')).toBe('braiins');
    expect(poolKindOf('Slush Pool')).toBe('braiins');
    expect(poolKindOf('AntPool')).toBe('antpool');
    expect(poolKindOf('F2Pool')).toBeNull();
    for (const [kind, adapter] of Object.entries(poolAdapters)) expect(adapter.kind).toBe(kind);
  });
});
