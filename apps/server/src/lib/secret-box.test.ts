import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { isSealed, SecretBox, SecretKeyError } from './secret-box.js';
import { loadOrCreateKeyFile, parseSecretKey } from './secret-key.js';

const key = () => randomBytes(32);

describe('SecretBox', () => {
  it('round-trips any text and never stores it readable', () => {
    const box = new SecretBox([key()]);
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 300 }), (plain) => {
        const sealed = box.seal(plain);
        expect(sealed).toMatch(/^enc:v1:[0-9a-f]{8}:[\w-]+$/);
        expect(isSealed(sealed)).toBe(true);
        expect(box.open(sealed)).toBe(plain);
      }),
    );
  });

  it('uses a fresh nonce for every value', () => {
    const box = new SecretBox([key()]);
    expect(box.seal('same')).not.toBe(box.seal('same'));
  });

  it('detects a tampered value', () => {
    const box = new SecretBox([key()]);
    const sealed = box.seal('hunter2-hunter2');
    const body = Buffer.from(sealed.split(':')[3]!, 'base64url');
    body[body.length - 1]! ^= 1;
    const tampered = `${sealed.split(':').slice(0, 3).join(':')}:${body.toString('base64url')}`;
    expect(() => box.open(tampered)).toThrow(SecretKeyError);
  });

  it('refuses a value of another key, naming the key id', () => {
    const sealed = new SecretBox([key()]).seal('pool-secret');
    const id = sealed.split(':')[2]!;
    expect(() => new SecretBox([key()]).open(sealed)).toThrow(new RegExp(`key id ${id}`));
  });

  it('reads a value of a previous key and tells that it needs resealing', () => {
    const old = key();
    const sealed = new SecretBox([old]).seal('totp-secret');
    const rotated = new SecretBox([key(), old]);
    expect(rotated.open(sealed)).toBe('totp-secret');
    expect(rotated.needsReseal(sealed)).toBe(true);
    expect(rotated.needsReseal(rotated.seal('totp-secret'))).toBe(false);
  });

  it('reads a value still in the old plain form, and tells that it needs sealing', () => {
    const box = new SecretBox([key()]);
    expect(box.open('plain-password')).toBe('plain-password');
    expect(box.needsReseal('plain-password')).toBe(true);
  });
});

describe('secret keys', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('parses 32 bytes as base64 or hex, and refuses anything else', () => {
    const bytes = key();
    expect(parseSecretKey(bytes.toString('base64'))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('hex'))).toEqual(bytes);
    expect(parseSecretKey(bytes.toString('base64url'))).toEqual(bytes);
    expect(parseSecretKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(parseSecretKey('not a key')).toBeNull();
  });

  it('generates DATA_DIR/secret.key once (mode 0600) and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fbox-key-'));
    dirs.push(dir);
    const data = join(dir, 'data');
    const first = loadOrCreateKeyFile(data);
    expect(first.created).toBe(true);
    const file = join(data, 'secret.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(parseSecretKey(readFileSync(file, 'utf8').trim())).toEqual(first.key);
    const second = loadOrCreateKeyFile(data);
    expect(second).toEqual({ key: first.key, created: false, path: file });
  });
});
