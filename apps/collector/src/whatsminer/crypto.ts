import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

/**
 * The cryptography of the Whatsminer APIs.
 *
 * API v2 (MicroBT "Whatsminer API V2.0.5", §2 Protocol / §2.1 API ciphertext): write commands need a
 * token from `get_token` ({time, salt, newsalt}); key = md5-crypt of the admin password with `salt`
 * (the vendor's reference is `openssl passwd -1 -salt $salt "$admin_password"`, of which the part
 * after the last `$` is used), AES key = sha256(key), sign = md5-crypt(key + time, newsalt); the
 * command is AES-256-ECB encrypted and base64 encoded.
 *
 * API v3 (apidoc.whatsminer.com, "Token Generation"): token = the first 8 characters of
 * base64(sha256(cmd + password + salt + ts)); that sha256 is also the AES-256-ECB key of encrypted
 * parameters (`set.miner.pools`), which are base64 encoded.
 */

const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MAGIC = '$1$';

const md5 = (...parts: Buffer[]): Buffer => {
  const hash = createHash('md5');
  for (const part of parts) hash.update(part);
  return hash.digest();
};

/** `n` characters of crypt's base64 for the 24-bit `value`, low bits first. */
const to64 = (value: number, n: number): string => {
  let out = '';
  let v = value;
  for (let i = 0; i < n; i++) {
    out += ITOA64[v & 0x3f];
    v >>= 6;
  }
  return out;
};

/**
 * MD5-crypt (`$1$`, Poul-Henning Kamp's FreeBSD scheme, as `openssl passwd -1`): `$1$<salt>$<hash>`.
 * The salt is cut at 8 characters or at a `$`, as crypt does. Password and salt are read as UTF-8.
 */
export const md5Crypt = (password: string, salt: string): string => {
  const cleanSalt = salt
    .replace(/^\$1\$/, '')
    .split('$')[0]!
    .slice(0, 8);
  const pw = Buffer.from(password, 'utf8');
  const sl = Buffer.from(cleanSalt, 'utf8');
  const magic = Buffer.from(MAGIC);

  const alternate = md5(pw, sl, pw);
  const parts: Buffer[] = [pw, magic, sl];
  for (let left = pw.length; left > 0; left -= 16) parts.push(alternate.subarray(0, Math.min(16, left)));
  for (let i = pw.length; i > 0; i >>= 1) parts.push(i & 1 ? Buffer.from([0]) : pw.subarray(0, 1));
  let final = md5(...parts);

  // 1000 rounds, to make brute force slower (the scheme's own reason).
  for (let round = 0; round < 1000; round++) {
    const roundParts: Buffer[] = [round & 1 ? pw : final];
    if (round % 3) roundParts.push(sl);
    if (round % 7) roundParts.push(pw);
    roundParts.push(round & 1 ? final : pw);
    final = md5(...roundParts);
  }

  const f = final;
  const hash =
    to64((f[0]! << 16) | (f[6]! << 8) | f[12]!, 4) +
    to64((f[1]! << 16) | (f[7]! << 8) | f[13]!, 4) +
    to64((f[2]! << 16) | (f[8]! << 8) | f[14]!, 4) +
    to64((f[3]! << 16) | (f[9]! << 8) | f[15]!, 4) +
    to64((f[4]! << 16) | (f[10]! << 8) | f[5]!, 4) +
    to64(f[11]!, 2);
  return `${MAGIC}${cleanSalt}$${hash}`;
};

/** The hash part of an md5-crypt (after the last `$`): what the v2 API calls the key and the sign. */
const cryptHash = (password: string, salt: string): string => md5Crypt(password, salt).split('$').pop()!;

/** What `get_token` answers (`Msg`). */
export interface V2TokenMessage {
  time: string;
  salt: string;
  newsalt: string;
}

export interface V2Credentials {
  /** The `token` field of a write command. */
  sign: string;
  /** AES-256 key: sha256 of the md5-crypt key, raw 32 bytes. */
  aesKey: Buffer;
}

/** The v2 write credentials for `password` from a `get_token` answer. */
export const v2Credentials = (password: string, token: V2TokenMessage): V2Credentials => {
  const key = cryptHash(password, token.salt);
  return {
    sign: cryptHash(key + token.time, token.newsalt),
    aesKey: createHash('sha256').update(key, 'utf8').digest(),
  };
};

/**
 * AES-256-ECB of `plain`, base64. The v2 firmware reads a C string, so v2 pads with NULs (`zero`);
 * v3 parameters use PKCS#7 (`pkcs7`).
 */
export const aesEncrypt = (plain: string, key: Buffer, padding: 'zero' | 'pkcs7'): string => {
  const cipher = createCipheriv('aes-256-ecb', key, null);
  let data = Buffer.from(plain, 'utf8');
  if (padding === 'zero') {
    cipher.setAutoPadding(false);
    const padded = Buffer.alloc(Math.ceil(Math.max(data.length, 1) / 16) * 16);
    data.copy(padded);
    data = padded;
  }
  return Buffer.concat([cipher.update(data), cipher.final()]).toString('base64');
};

/**
 * Decrypts base64 AES-256-ECB text and drops whatever padding follows the JSON (NULs or PKCS#7
 * bytes: both are below a space). Throws when the text is not a whole number of blocks.
 */
export const aesDecrypt = (base64: string, key: Buffer): string => {
  const decipher = createDecipheriv('aes-256-ecb', key, null);
  decipher.setAutoPadding(false);
  const plain = Buffer.concat([decipher.update(Buffer.from(base64, 'base64')), decipher.final()]);
  let end = plain.length;
  while (end > 0 && plain[end - 1]! < 0x20) end--;
  return plain.subarray(0, end).toString('utf8');
};

export interface V3Auth {
  /** 8 characters: the `token` field. */
  token: string;
  /** sha256, raw 32 bytes: the AES key of encrypted parameters. */
  aesKey: Buffer;
}

/** The v3 token of `cmd` at unix time `ts`. */
export const v3Auth = (cmd: string, password: string, salt: string, ts: number): V3Auth => {
  const aesKey = createHash('sha256').update(`${cmd}${password}${salt}${ts}`, 'utf8').digest();
  return { token: aesKey.toString('base64').slice(0, 8), aesKey };
};
