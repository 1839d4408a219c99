import { rule } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';
import { CLOCK_SLACK_MS, fromPickerValue, lastWindow, toPickerValue, windowProblem } from './window';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 26, 9);

describe('export window', () => {
  it('takes a window of up to 7 days starting within the last 30 days', () => {
    expect(windowProblem(now - HOUR, now, now)).toBeNull();
    expect(windowProblem(now - 7 * DAY, now, now)).toBeNull();
    expect(windowProblem(now - 30 * DAY, now - 29 * DAY, now)).toBeNull();
  });

  it('refuses what the server refuses, with its rule', () => {
    expect(windowProblem(now, now, now)).toEqual({ field: 'to', message: rule('rule.timeOrder') });
    expect(windowProblem(now - 7 * DAY - 1, now, now)).toEqual({
      field: 'to',
      message: rule('rule.windowMaxDays', { max: 7 }),
    });
    expect(windowProblem(now + CLOCK_SLACK_MS + 1, now + DAY, now)).toEqual({
      field: 'from',
      message: rule('rule.windowFuture'),
    });
    expect(windowProblem(now - 30 * DAY - 1, now - 29 * DAY, now)).toEqual({
      field: 'from',
      message: rule('rule.windowTooOld', { max: 30 }),
    });
  });

  it("shows instants as wall time of the user's zone and reads them back", () => {
    const shown = toPickerValue(now, 'UTC+8');
    expect(shown.format('YYYY-MM-DD HH:mm')).toBe('2026-11-26 17:00');
    expect(fromPickerValue(shown, 'UTC+8')).toBe(now);
    const [from, to] = lastWindow(6 * HOUR, now, 'UTC-5');
    expect(from.format('YYYY-MM-DD HH:mm')).toBe('2026-11-25 22:00');
    expect(to.format('YYYY-MM-DD HH:mm')).toBe('2026-11-26 04:00');
  });
});
