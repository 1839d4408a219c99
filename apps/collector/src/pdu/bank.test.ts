import { afterEach, describe, expect, it } from 'vitest';
import { recordingLogger } from '../test-logger.js';
import { PduBank } from './bank.js';
import { type PduConfigInput, PduSchema } from './config.js';
import { type FakePdu, pduEntryFor, startFakePdu } from './fake-pdu.js';
import { PduClient } from './snmp.js';

const fakes: FakePdu[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.stop()));
});

const start = async (...args: Parameters<typeof startFakePdu>) => {
  const fake = await startFakePdu(...args);
  fakes.push(fake);
  return fake;
};

const pduAt = (fake: FakePdu, overrides: Partial<PduConfigInput> & Pick<PduConfigInput, 'name'>) =>
  PduSchema.parse(pduEntryFor(fake, overrides));

describe('PduBank against fake APC PDUs', () => {
  it('locates FBOX-wide outlets on their PDU and switches them, checked by reading back', async () => {
    const a = await start({ outlets: 8 });
    const b = await start({ outlets: 4, initial: 'off' });
    const bank = new PduBank([
      pduAt(b, { name: 'rack-b', first_outlet: 109 }),
      pduAt(a, { name: 'rack-a', first_outlet: 101 }),
    ]);
    expect(bank.locate(103)).toMatchObject({ pdu: { name: 'rack-a' }, port: 3 });
    expect(bank.locate(112)).toMatchObject({ pdu: { name: 'rack-b' }, port: 4 });
    expect(bank.locate(100)).toBeNull();
    expect(bank.locate(113)).toBeNull();

    expect(await bank.set(103, 'off')).toEqual({ ok: true });
    expect(await bank.set(110, 'on')).toEqual({ ok: true });
    expect(a.sets).toMatchObject([{ port: 3, command: 2 }]);
    expect(b.sets).toMatchObject([{ port: 2, command: 1 }]);
    expect(await bank.set(200, 'on')).toEqual({ ok: false, error: 'outlet 200 is on no configured PDU' });

    const states = await bank.readStates();
    expect([...states.keys()]).toEqual([101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111, 112]);
    expect(states.get(103)).toBe('off');
    expect(states.get(104)).toBe('on');
    expect(states.get(110)).toBe('on');
    expect(states.get(111)).toBe('off');
  });

  it('returns the PDU’s refusal with the outlet named, and nothing changes', async () => {
    const fake = await start();
    const { logger, events: lines } = recordingLogger();
    const bank = new PduBank([pduAt(fake, { name: 'rack-a', community: 'public', first_outlet: 11 })], {
      logger,
    });
    const result = await bank.set(13, 'off');
    expect(result).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^outlet 13: pdu rack-a \(127\.0\.0\.1:\d+\) refused the SET of outlet 3 to off: noAccess/,
      ),
    });
    expect(fake.sets).toEqual([]);
    expect(fake.states[2]).toBe('on');
    expect(lines).toMatchObject([
      { level: 'warn', msg: 'outlet not switched', obj: { outlet: 13, port: 3 } },
    ]);
  });

  it('counts a SET whose answers were lost as done when the outlet reads as asked', async () => {
    const fake = await start();
    fake.dropAnswers = 2;
    const bank = new PduBank([pduAt(fake, { name: 'rack-a', timeout_ms: 300 })]);
    expect(await bank.set(3, 'off')).toEqual({ ok: true });
    // Both tries reached the PDU; switching off twice is still off.
    expect(fake.sets).toMatchObject([
      { port: 3, command: 2 },
      { port: 3, command: 2 },
    ]);
    expect(fake.states[2]).toBe('off');
  });

  it('fails a switch the PDU accepted but did not make', async () => {
    const fake = await start();
    fake.stuck = true;
    const bank = new PduBank([pduAt(fake, { name: 'rack-a' })], { verifyReads: 3, verifyIntervalMs: 20 });
    expect(await bank.set(2, 'off')).toEqual({
      ok: false,
      error: `outlet 2: pdu rack-a (127.0.0.1:${fake.port}) outlet 2 still reads on after the command to switch off`,
    });
    expect(fake.sets).toHaveLength(1);
  });

  it('reads a silent PDU as unknown, says why once, and says when it answers again', async () => {
    const quiet = await start({ outlets: 2 });
    const fine = await start({ outlets: 2, initial: 'off' });
    const { logger, events: lines } = recordingLogger();
    const bank = new PduBank(
      [
        pduAt(quiet, { name: 'quiet', first_outlet: 1, timeout_ms: 200 }),
        pduAt(fine, { name: 'fine', first_outlet: 3 }),
      ],
      { logger },
    );
    quiet.silent = true;
    const expected = new Map([
      [1, 'unknown'],
      [2, 'unknown'],
      [3, 'off'],
      [4, 'off'],
    ]);
    expect(await bank.readStates()).toEqual(expected);
    expect(await bank.readStates()).toEqual(expected);
    const warnings = lines.filter((line) => line.level === 'warn');
    expect(warnings).toEqual([
      {
        level: 'warn',
        msg: 'pdu not read',
        obj: {
          pdu: 'quiet',
          reason: `pdu quiet (127.0.0.1:${quiet.port}) did not answer the read of outlet states (2 tries of 200 ms): wrong community, SNMP off, or unreachable`,
        },
      },
    ]);
    expect(await bank.set(1, 'off')).toMatchObject({
      ok: false,
      error: /^outlet 1: .*did not answer the SET/,
    });

    quiet.silent = false;
    // It heard the SET all along; only its answers were lost.
    expect((await bank.readStates()).get(1)).toBe('off');
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'pdu answers again', obj: { pdu: 'quiet' } });
  });

  it('switches a row one outlet after another with at least the delay between SETs', async () => {
    const fake = await start({ outlets: 4, initial: 'off' });
    const bank = new PduBank([pduAt(fake, { name: 'rack-a', first_outlet: 21 })]);
    const delayMs = 150;
    const result = await bank.setMany([23, 21, 24], 'on', delayMs);
    expect(result).toEqual({
      ok: true,
      results: [
        { outlet: 23, result: { ok: true } },
        { outlet: 21, result: { ok: true } },
        { outlet: 24, result: { ok: true } },
      ],
    });
    expect(fake.sets.map((set) => set.port)).toEqual([3, 1, 4]);
    for (let i = 1; i < fake.sets.length; i++)
      // setTimeout may fire a millisecond early; the gap is the delay plus the read-back.
      expect(fake.sets[i]!.at - fake.sets[i - 1]!.at).toBeGreaterThanOrEqual(delayMs - 1);
    expect(fake.states).toEqual(['on', 'off', 'on', 'on']);
  });

  it('goes on past an outlet that fails, and reports it', async () => {
    const fake = await start({ outlets: 2, initial: 'on' });
    const bank = new PduBank([pduAt(fake, { name: 'rack-a' })]);
    const result = await bank.setMany([1, 7, 2], 'off', 10);
    expect(result).toMatchObject({ ok: false, error: 'outlet 7 is on no configured PDU' });
    expect(result.results.map(({ outlet, result }) => [outlet, result.ok])).toEqual([
      [1, true],
      [7, false],
      [2, true],
    ]);
    expect(fake.states).toEqual(['off', 'off']);
  });

  it('never has two SETs at one PDU at once, while different PDUs switch side by side', async () => {
    const a = await start({ outlets: 3, setDelayMs: 80 });
    const b = await start({ outlets: 3, setDelayMs: 80 });
    // The fake sees overlapping SETs when they are sent without the bank.
    const direct = new PduClient(pduAt(b, { name: 'rack-b' }));
    await Promise.all([direct.command(1, 'off'), direct.command(2, 'off')]);
    expect(b.maxConcurrentSets).toBe(2);

    const bank = new PduBank([
      pduAt(a, { name: 'rack-a', first_outlet: 1 }),
      pduAt(b, { name: 'rack-b', first_outlet: 4 }),
    ]);
    const started = Date.now();
    const results = await Promise.all([
      bank.set(1, 'off'),
      bank.set(2, 'off'),
      bank.set(3, 'off'),
      bank.set(6, 'off'),
    ]);
    expect(results.every((result) => result.ok)).toBe(true);
    expect(a.maxConcurrentSets).toBe(1);
    expect(a.sets.map((set) => set.port)).toEqual([1, 2, 3]);
    // Each SET on rack-a waited for the one before it to be answered.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * 80);
    expect(a.states).toEqual(['off', 'off', 'off']);
    expect(b.states[2]).toBe('off');
  });
});
