import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, newTotpSecret, otpauthUrl, totpCode, verifyTotp } from './totp.js';

describe('base32', () => {
  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(base32Decode(base32Encode(bytes))).toEqual(Buffer.from(bytes));
      }),
    );
  });

  it('matches RFC 4648 vectors and rejects foreign characters', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('mzxw6ytboi======')?.toString()).toBe('foobar');
    expect(base32Decode('MZXW1')).toBeNull();
  });
});

describe('TOTP', () => {
  const rfcKey = Buffer.from('12345678901234567890');

  it('matches the RFC 6238 SHA-1 test vectors (last 6 digits)', () => {
    expect(hotp(rfcKey, Math.floor(59 / 30))).toBe('287082');
    expect(hotp(rfcKey, Math.floor(1111111109 / 30))).toBe('081804');
    expect(hotp(rfcKey, Math.floor(2000000000 / 30))).toBe('279037');
  });

  it('accepts a generated code within ±1 step and refuses it outside', () => {
    fc.assert(
      fc.property(fc.integer({ min: 60_000, max: 4_000_000_000_000 }), (now) => {
        const secret = newTotpSecret();
        const code = totpCode(secret, now);
        expect(verifyTotp(secret, code, now, null)).toBe(Math.floor(now / 30_000));
        expect(verifyTotp(secret, code, now + 30_000, null)).not.toBeNull();
        expect(verifyTotp(secret, code, now - 30_000, null)).not.toBeNull();
        expect(verifyTotp(secret, code, now + 95_000, null)).toBeNull();
      }),
      { numRuns: 50 },
    );
  });

  it('refuses a step at or before the last used one', () => {
    const secret = newTotpSecret();
    const now = Date.UTC(2025, 0, 1);
    const step = verifyTotp(secret, totpCode(secret, now), now, null)!;
    expect(verifyTotp(secret, totpCode(secret, now), now, step)).toBeNull();
    expect(verifyTotp(secret, totpCode(secret, now + 30_000), now + 30_000, step)).toBe(step + 1);
  });

  it('rejects malformed codes', () => {
    const secret = newTotpSecret();
    for (const code of ['', '12345', '1234567', 'abcdef', "' OR 1=1"]) {
      expect(verifyTotp(secret, code, Date.now(), null)).toBeNull();
    }
  });

  it('builds an otpauth URL with issuer and label', () => {
    expect(otpauthUrl('FBOX Cloud', 'admin', 'ABC')).toBe(
      'otpauth://totp/FBOX%20Cloud%3Aadmin?secret=ABC&issuer=FBOX%20Cloud&algorithm=SHA1&digits=6&period=30',
    );
  });
});
