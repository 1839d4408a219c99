import { describe, expect, it } from 'vitest';
import { FboxModel } from './fbox.js';
import { minerLog, splitParts } from './miner-log.js';

const hour = 3_600_000;
const start = Date.UTC(2025, 0, 1);

const modelAt = (now: number) =>
  new FboxModel(
    { deviceId: 'LOGBOX', kind: 'immersion', tanks: 1, minersPerTank: 2 },
    { now, seed: 3, restartMs: 60_000 },
  );

describe('a simulated miner log', () => {
  it('shows the window: status lines every 5 minutes, a reboot with its boot section', () => {
    const model = modelAt(start);
    const miner = model.miners[0]!;
    model.advance(start + hour);
    miner.reboot(start + hour);
    model.advance(start + 2 * hour);
    const log = minerLog(miner, start + 30 * 60_000, start + 2 * hour, start + 2 * hour, 1 << 20);
    const lines = log.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^2025-01-01 00:30:00 cgminer: GHS 5s=/);
    expect(log).toContain('2025-01-01 01:00:00 system: reboot requested');
    expect(log).toContain('2025-01-01 01:01:00 kernel: Booting Linux on physical CPU 0x0');
    // One every 5 minutes: 00:30–00:55, none while it was down (01:00–01:01), 01:05–02:00.
    expect(log).not.toContain('2025-01-01 01:00:00 cgminer: GHS');
    expect(lines.filter((l) => l.includes('GHS 5s=')).length).toBe(6 + 12);
    // Lines are in time order, and the same window gives the same log.
    const times = lines.map((l) => l.slice(0, 19));
    expect([...times].sort()).toEqual(times);
    expect(minerLog(miner, start + 30 * 60_000, start + 2 * hour, start + 2 * hour, 1 << 20)).toBe(log);
  });

  it('keeps the newest lines within its bound and says what it left out', () => {
    const model = modelAt(start);
    const miner = model.miners[1]!;
    model.advance(start + 24 * hour);
    const full = minerLog(miner, start, start + 24 * hour, start + 24 * hour, 1 << 20);
    const cut = minerLog(miner, start, start + 24 * hour, start + 24 * hour, 4096);
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(4096);
    expect(cut).toMatch(/^\[\d+ bytes of earlier log omitted\]\n/);
    expect(full.endsWith(cut.slice(cut.indexOf('\n') + 1))).toBe(true);
  });

  it('answers nothing for a window before it', () => {
    const model = modelAt(start);
    expect(minerLog(model.miners[0]!, start + hour, start + 2 * hour, start, 1 << 20)).toBe('');
  });
});

describe('splitParts', () => {
  it('cuts at line ends within the bound and loses nothing', () => {
    const text = Array.from({ length: 200 }, (_, i) => `line ${i} ${'x'.repeat(i % 37)}\n`).join('');
    const parts = splitParts(text, 512);
    expect(parts.join('')).toBe(text);
    for (const part of parts) {
      expect(Buffer.byteLength(part)).toBeLessThanOrEqual(512);
      expect(part.endsWith('\n')).toBe(true);
    }
  });

  it('cuts a line longer than a part by characters, never inside one', () => {
    const text = `${'é'.repeat(700)}\n`;
    const parts = splitParts(text, 256);
    expect(parts.join('')).toBe(text);
    for (const part of parts) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(256);
  });

  it('gives one empty part for an empty log', () => {
    expect(splitParts('', 1024)).toEqual(['']);
  });
});
