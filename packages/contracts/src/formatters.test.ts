import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatEnergy,
  formatHashrate,
  formatNumberSuffix,
  formatReading,
  percentLoad,
  splitUptime,
} from './formatters.js';
import { timeZoneOffsetMinutes, timeZones } from './time-zones.js';

describe('formatHashrate', () => {
  it('switches unit at 1000 TH/s and 1,000,000 TH/s', () => {
    expect(formatHashrate(999.5)).toBe('999.5 TH/s');
    expect(formatHashrate(1000)).toBe('1 PH/s');
    expect(formatHashrate(1234.5)).toBe('1.23 PH/s');
    expect(formatHashrate(1_000_000)).toBe('1 EH/s');
    expect(formatHashrate(0)).toBe('0 TH/s');
  });
  it('shows -999 and missing values as a dash', () => {
    expect(formatHashrate(-999)).toBe('-');
    expect(formatHashrate(null)).toBe('-');
    expect(formatHashrate(undefined)).toBe('-');
  });
});

describe('formatEnergy', () => {
  it('scales kWh up to PWh', () => {
    expect(formatEnergy(12.345)).toBe('12.35 kWh');
    expect(formatEnergy(1500)).toBe('1.5 MWh');
    expect(formatEnergy(2_000_000)).toBe('2 GWh');
    expect(formatEnergy(3e9)).toBe('3 TWh');
    expect(formatEnergy(4e12)).toBe('4 PWh');
    expect(formatEnergy(5e15)).toBe('5000 PWh');
    expect(formatEnergy(-999)).toBe('-');
  });
});

describe('formatNumberSuffix', () => {
  it('uses k, M, G, T, P, E', () => {
    expect(formatNumberSuffix(999)).toBe('999');
    expect(formatNumberSuffix(1500)).toBe('1.5k');
    expect(formatNumberSuffix(2e6)).toBe('2M');
    expect(formatNumberSuffix(3e18)).toBe('3E');
  });
});

describe('splitUptime', () => {
  it('splits seconds into days, hours, minutes and seconds', () => {
    expect(splitUptime(90_061)).toEqual({ days: 1, hours: 1, minutes: 1, seconds: 1 });
    expect(splitUptime(-999)).toBeNull();
  });
  it('always recomposes to the input', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 9 }), (n) => {
        const p = splitUptime(n);
        expect(p).not.toBeNull();
        if (!p) return;
        expect(p.days * 86_400 + p.hours * 3600 + p.minutes * 60 + p.seconds).toBe(n);
        expect(p.hours).toBeLessThan(24);
        expect(p.minutes).toBeLessThan(60);
      }),
    );
  });
});

describe('readings and loads', () => {
  it('formats a reading with its unit, -999 as a dash', () => {
    expect(formatReading(45.26, '°C')).toBe('45.3 °C');
    expect(formatReading(-999, '°C')).toBe('-');
  });
  it('computes percent load against 5000 at 50 Hz and 6000 at 60 Hz', () => {
    expect(percentLoad(2500)).toBe(50);
    expect(percentLoad(3000, 60)).toBe(50);
    expect(percentLoad(-999)).toBeNull();
  });
});

describe('time zones', () => {
  it('lists UTC-12 to UTC+12', () => {
    expect(timeZones).toHaveLength(25);
    expect(timeZones[0]).toBe('UTC-12');
    expect(timeZones[24]).toBe('UTC+12');
    expect(timeZoneOffsetMinutes('UTC+8')).toBe(480);
    expect(timeZoneOffsetMinutes('UTC-5')).toBe(-300);
    expect(timeZoneOffsetMinutes('bogus')).toBe(0);
  });
});
