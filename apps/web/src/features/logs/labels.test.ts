import { describe, expect, it } from 'vitest';
import { i18n } from '../../lib/i18n';
import { filterLabel, formatBytes, settledPercent } from './labels';

describe('miner log labels', () => {
  it('says sizes in human units', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.0 GB');
  });

  it('counts done and failed miners as settled', () => {
    expect(settledPercent({ total: 10, done: 3, failed: 1 })).toBe(40);
    expect(settledPercent({ total: 0, done: 0, failed: 0 })).toBe(100);
  });

  it("reads a filter export's label in words, and leaves what it cannot read as it came", () => {
    const names = new Map([[3, 'Hydro 01']]);
    expect(filterLabel(i18n.t, 'fbox_id=3, status=online, model=S21', names)).toBe(
      'FBOX: Hydro 01, Status: Online, Model: S21',
    );
    expect(filterLabel(i18n.t, '', names)).toBe('All miners of the mine');
    expect(filterLabel(i18n.t, 'something odd', names)).toBe('something odd');
  });
});
