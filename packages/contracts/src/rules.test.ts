import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { IdSchema, intInRange, numeric, numericWithDefault, optionalNumeric } from './rules.js';

const decimal = /^-?(?:\d+\.?\d*|\.\d+)$/;

describe('numeric(): a JSON number or plain decimal text, nothing else', () => {
  const anyNumber = numeric(z.number());

  it('reads every decimal spelling of a number as that number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        expect(anyNumber.parse(n)).toBe(n);
      }),
    );
    fc.assert(
      fc.property(fc.integer(), fc.nat({ max: 999 }), (whole, fraction) => {
        expect(anyNumber.parse(String(whole))).toBe(whole);
        expect(anyNumber.parse(`${whole}.${fraction}`)).toBe(Number(`${whole}.${fraction}`));
      }),
    );
    expect(anyNumber.parse('.5')).toBe(0.5);
  });

  it('refuses every other value instead of coercing it', () => {
    const junk = fc.oneof(
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.integer(), { maxLength: 2 }),
      fc.dictionary(fc.string(), fc.integer(), { maxKeys: 2 }),
      fc.string().filter((s) => s.trim() !== '' && !decimal.test(s)),
      fc.constantFrom('0x10', '1e3', ' 1', '1 ', '+1', 'NaN', 'Infinity', '１２'),
    );
    fc.assert(fc.property(junk, (value) => !anyNumber.safeParse(value).success));
    expect(anyNumber.safeParse(Number.NaN).success).toBe(false);
    expect(anyNumber.safeParse(Number.POSITIVE_INFINITY).success).toBe(false);
  });

  it('refuses decimal text with more digits than a number holds exactly, instead of rounding it', () => {
    const refused = (text: string) => {
      const result = anyNumber.safeParse(text);
      expect(result.success, text).toBe(false);
      expect(result.error?.issues[0]?.message).toContain('rule.tooPrecise');
    };
    refused('9007199254740993');
    refused('0.30000000000000001');
    refused('-1234567890.123456');
    for (const [text, value] of [
      ['126000000000000', 126e12],
      ['100000000000000000', 1e17],
      ['0.000000123456789012345', 0.000000123456789012345],
      ['12.50', 12.5],
      ['-0.0', -0],
      ['999999999999999', 999_999_999_999_999],
    ] as const)
      expect(anyNumber.parse(text), text).toBe(value);
    // Every decimal of at most 15 significant digits is taken, as the number it spells.
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 15n - 1n }),
        fc.nat({ max: 15 }),
        fc.boolean(),
        (digits, point, negative) => {
          const text = digits.toString().padStart(16, '0');
          const decimal = `${negative ? '-' : ''}${text.slice(0, 16 - point)}.${text.slice(16 - point)}`;
          expect(anyNumber.parse(decimal), decimal).toBe(Number(decimal));
        },
      ),
    );
  });

  it('treats blank as missing: required fails, optional is absent, a default applies', () => {
    for (const blank of ['', '   ', undefined]) {
      expect(anyNumber.safeParse(blank).error?.issues[0]?.message).toBe('rule.required');
      expect(optionalNumeric(z.number()).parse(blank)).toBeUndefined();
      expect(numericWithDefault(z.number(), 20).parse(blank)).toBe(20);
    }
    expect(numericWithDefault(z.number(), 20).safeParse(null).success).toBe(false);
    expect(optionalNumeric(z.number()).safeParse('0x10').success).toBe(false);
  });

  it('keeps ids positive safe integers and ranges inclusive', () => {
    expect(IdSchema.safeParse(true).success).toBe(false);
    expect(IdSchema.safeParse('9007199254740993').success).toBe(false);
    expect(IdSchema.safeParse('-1').success).toBe(false);
    expect(IdSchema.parse('42')).toBe(42);
    expect(intInRange(1, 3).parse('3')).toBe(3);
    expect(intInRange(1, 3).safeParse('1.5').success).toBe(false);
  });
});
