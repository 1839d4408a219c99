import { describe, expect, it } from 'vitest';
import { addDays, presetRange, todayIn } from './revenue-range';

describe('revenue range presets', () => {
  // 2026-11-25 20:30 UTC: already the 26th in UTC+8, still the 25th in UTC-5.
  const now = Date.UTC(2026, 10, 25, 20, 30);

  it("takes today's date in the user's zone", () => {
    expect(todayIn('UTC+8', now)).toBe('2026-11-26');
    expect(todayIn('UTC-5', now)).toBe('2026-11-25');
    expect(todayIn('UTC+0', now)).toBe('2026-11-25');
  });

  it('ends every preset today: 7 and 30 days, or the month so far', () => {
    expect(presetRange('7d', '2026-11-26')).toEqual(['2026-11-20', '2026-11-26']);
    expect(presetRange('30d', '2026-03-01')).toEqual(['2026-01-31', '2026-03-01']);
    expect(presetRange('month', '2026-11-26')).toEqual(['2026-11-01', '2026-11-26']);
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
  });
});
