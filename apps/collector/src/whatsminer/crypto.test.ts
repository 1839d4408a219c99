import { describe, expect, it } from 'vitest';
import { aesDecrypt, aesEncrypt, md5Crypt, v2Credentials, v3Auth } from './crypto.js';

describe('md5Crypt', () => {
  // Each produced on this machine by `openssl passwd -1 -salt <salt> <password>` (OpenSSL 3).
  const vectors: [password: string, salt: string, expected: string][] = [
    ['admin', '5QAHiKMb', '$1$5QAHiKMb$x5JSSQzqF0lEACIGSL0Ld1'],
    ['admin', 'BQ5hoXV9', '$1$BQ5hoXV9$RxmaDUO33TS7O26yeMHZ81'],
    ['hunter2', 'abc', '$1$abc$9dV135Rc3U8Xbm2DxadgF0'],
    ['x', 'a', '$1$a$TYcRT0JumNkKBBlirG1X4/'],
    ['passwordpasswordpasswordpassword12', '12345678', '$1$12345678$DxA1.CiCJmY6jlsq7FcNU1'],
    ['pässwörd', 'saltsalt', '$1$saltsalt$VReRfkQ8Hs1aayf/oxMkG/'],
    // The v2 sign: the key's hash part + the token's time, with newsalt.
    ['x5JSSQzqF0lEACIGSL0Ld11691052235', 'kowEj187', '$1$kowEj187$D8c2nb9DRK2SoIgNkIKQV/'],
  ];

  it.each(vectors)('crypt(%s, %s) matches openssl passwd -1', (password, salt, expected) => {
    expect(md5Crypt(password, salt)).toBe(expected);
  });

  it('cuts the salt at 8 characters and takes a $1$-prefixed one', () => {
    expect(md5Crypt('admin', '5QAHiKMbEXTRA')).toBe('$1$5QAHiKMb$x5JSSQzqF0lEACIGSL0Ld1');
    expect(md5Crypt('admin', '$1$5QAHiKMb$')).toBe('$1$5QAHiKMb$x5JSSQzqF0lEACIGSL0Ld1');
  });
});

describe('API v2 credentials and ciphertext', () => {
  const token = { time: '1691052235', salt: '5QAHiKMb', newsalt: 'kowEj187' };

  it('derives sign and AES key as the V2.0.5 document says', () => {
    const { sign, aesKey } = v2Credentials('admin', token);
    expect(sign).toBe('D8c2nb9DRK2SoIgNkIKQV/');
    // printf x5JSSQzqF0lEACIGSL0Ld1 | openssl dgst -sha256
    expect(aesKey.toString('hex')).toBe('2b2d94b56224740c203daf81a7dc08729bd5a71d8bbe37350da63a68991cb72c');
  });

  it('encrypts with zero padding exactly as openssl enc -aes-256-ecb -nopad does', () => {
    const { aesKey } = v2Credentials('admin', token);
    const plain = '{"cmd":"restart_btminer","token":"abc"}';
    // printf '<plain>\0…' | openssl enc -aes-256-ecb -nopad -K <key> | base64
    const expected = 'mvYOk8JIhzFaMjTrbsDVn+/S6vXwIpDlvN2UNHnnegfHZ+Z4jD63m4ubXGMWdvyK';
    expect(aesEncrypt(plain, aesKey, 'zero')).toBe(expected);
    expect(aesDecrypt(expected, aesKey)).toBe(plain);
  });

  it('round-trips both paddings, and a wrong key does not give the text back', () => {
    const key = v2Credentials('admin', token).aesKey;
    const other = v2Credentials('Admin123', token).aesKey;
    for (const padding of ['zero', 'pkcs7'] as const) {
      const plain = JSON.stringify({
        cmd: 'update_pools',
        pool1: 'stratum+tcp://ü.example:3333',
        x: 'a'.repeat(16),
      });
      const sealed = aesEncrypt(plain, key, padding);
      expect(Buffer.from(sealed, 'base64').length % 16).toBe(0);
      expect(aesDecrypt(sealed, key)).toBe(plain);
      expect(aesDecrypt(sealed, other)).not.toBe(plain);
    }
    expect(() => aesDecrypt('AAAA', key)).toThrow();
  });
});

describe('API v3 token', () => {
  it('is the first 8 base64 characters of sha256(cmd + password + salt + ts)', () => {
    // printf set.miner.poolssuper5QAHiKMb1692685512 | openssl dgst -sha256 -binary | base64
    const auth = v3Auth('set.miner.pools', 'super', '5QAHiKMb', 1692685512);
    expect(auth.token).toBe('t5VzZdBe');
    expect(auth.aesKey.toString('base64')).toBe('t5VzZdBewnPniKEDTRpLDfUbKVo9p50U9Gsr97VuSrM=');
    expect(v3Auth('set.miner.service', 'S3cret!', 'px5hoXa9', 1700000000).token).toBe('8hxSifBg');
  });
});
