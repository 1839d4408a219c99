import { describe, expect, it } from 'vitest';
import { dayOf, dayRange, startOfDay } from './day-range';

describe('operation log day range', () => {
  it("starts a day at midnight of the user's time zone", () => {
    expect(startOfDay({ year: 2025, month: 1, day: 2 }, 'UTC+8')).toBe(Date.UTC(2025, 0, 1, 16));
    expect(startOfDay({ year: 2025, month: 1, day: 2 }, 'UTC-5')).toBe(Date.UTC(2025, 0, 2, 5));
  });

  it('covers whole days up to the midnight after the last one, across month ends', () => {
    expect(dayRange({ year: 2025, month: 1, day: 30 }, { year: 2025, month: 1, day: 31 }, 'UTC+0')).toEqual({
      from: Date.UTC(2025, 0, 30),
      to: Date.UTC(2025, 1, 1),
    });
  });

  it('reads the day back from an instant', () => {
    expect(dayOf(Date.UTC(2025, 0, 1, 16), 'UTC+8')).toEqual({ year: 2025, month: 1, day: 2 });
    expect(dayOf(Date.UTC(2025, 0, 1, 16), 'UTC+0')).toEqual({ year: 2025, month: 1, day: 1 });
  });
});
