import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CommandAckSchema, HelloMessageSchema, MinerTelemetrySchema } from './mqtt.js';

describe('device text', () => {
  it('loses control characters (U+0000 first of all) and keeps the rest', () => {
    expect(HelloMessageSchema.parse({ computer_name: ' PC\u0000-1\t ', version: '1.\u00072' })).toEqual({
      computer_name: 'PC-1',
      version: '1.2',
    });
    expect(CommandAckSchema.parse({ id: 'c1', ok: false, error: 'busy\u0000\u007f' }).error).toBe('busy');
  });

  it('measures the text without its control characters, and says so as zod says it', () => {
    const worker = MinerTelemetrySchema.shape.worker;
    expect(worker.parse(`${'w'.repeat(128)}\u0000`)).toBe('w'.repeat(128));
    const tooLong = worker.safeParse('w'.repeat(129));
    expect(tooLong.error?.issues).toEqual(z.string().max(128).safeParse('w'.repeat(129)).error?.issues);
  });

  it('still refuses an SN that is nothing but control characters', () => {
    const miner = MinerTelemetrySchema.shape.sn;
    expect(miner.safeParse('\u0000\u0001').success).toBe(false);
    expect(miner.parse('SN\u0000-1')).toBe('SN-1');
  });
});
