import { describe, expect, it } from 'vitest';
import { dummyVerify, hashPassword, passwordCost, verifyPassword } from './password.js';

describe('password hashing', () => {
  it('hashes with Argon2id at the OWASP minimum, salted, and verifies only the right password', async () => {
    const hash = await hashPassword('correct-horse-1', passwordCost);
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hashPassword('correct-horse-1', passwordCost)).not.toBe(hash);
    expect(await verifyPassword(hash, 'correct-horse-1')).toBe(true);
    expect(await verifyPassword(hash, 'correct-horse-2')).toBe(false);
  });

  it('verifies a hash made at the suites’ cheaper cost, and answers false for a malformed hash', async () => {
    const hash = await hashPassword('correct-horse-1');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(await verifyPassword(hash, 'correct-horse-1')).toBe(true);
    expect(await verifyPassword('not-a-hash', 'correct-horse-1')).toBe(false);
    expect(await dummyVerify('anything')).toBe(false);
  });
});
