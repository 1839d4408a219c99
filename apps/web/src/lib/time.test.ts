import { describe, expect, it } from 'vitest';
import { formatTime } from './time';

describe('formatTime', () => {
  const instant = Date.UTC(2026, 0, 31, 20, 5, 9);

  it('shows the instant in the given zone', () => {
    expect(formatTime(instant, 'UTC+0')).toBe('2026-01-31 20:05:09');
    expect(formatTime(instant, 'UTC+8')).toBe('2026-02-01 04:05:09');
    expect(formatTime(instant, 'UTC-12')).toBe('2026-01-31 08:05:09');
  });
});
