import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** Stored form of an encrypted value: `enc:v1:<key id>:<base64url of nonce | tag | ciphertext>`. */
const prefix = 'enc:v1:';
const nonceBytes = 12;
const tagBytes = 16;

/** A secret that cannot be read with the keys this server has: a wrong or missing key, or tampering. */
export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

/** Whether a stored value is in the encrypted form (else it is a value from before encryption). */
export const isSealed = (stored: string): boolean => stored.startsWith(prefix);

/**
 * Short public name of a key, written into every value it seals so the right key is picked after a
 * rotation and a wrong key is named in the error. A hash, so it tells nothing about the key.
 */
export const keyIdOf = (key: Buffer): string =>
  createHash('sha256').update('fbox-secret-key-id:').update(key).digest('hex').slice(0, 8);

/**
 * Encrypts stored secrets (MQTT and collector passwords, pool API credentials, TOTP secrets) with
 * AES-256-GCM: a random 96-bit nonce per value, and the tag makes any change to the value fail
 * loudly instead of decrypting to garbage. The first key seals; the others (previous keys of a
 * rotation) only open, until the start-up pass has resealed their values under the first.
 */
export class SecretBox {
  private readonly keys: Map<string, Buffer>;
  readonly keyId: string;

  constructor(keys: readonly Buffer[]) {
    if (keys.length === 0 || keys.some((k) => k.length !== 32)) {
      throw new Error('SecretBox needs one or more 32-byte keys');
    }
    this.keys = new Map(keys.map((k) => [keyIdOf(k), k]));
    this.keyId = keyIdOf(keys[0]!);
  }

  seal(plain: string): string {
    const nonce = randomBytes(nonceBytes);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.keyId)!, nonce);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const sealed = Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
    return `${prefix}${this.keyId}:${sealed}`;
  }

  /**
   * The plain text of a stored value. A value without the prefix is from before encryption and is
   * returned as it is (the start-up pass seals it).
   * @throws SecretKeyError when no key of this server opens it.
   */
  open(stored: string): string {
    if (!isSealed(stored)) return stored;
    const [id = '', body = ''] = stored.slice(prefix.length).split(':');
    const key = this.keys.get(id);
    if (!key) {
      throw new SecretKeyError(
        `a stored secret was encrypted with key id ${id}, which is neither SECRET_KEY (${this.keyId}) nor in SECRET_KEY_PREVIOUS`,
      );
    }
    const bytes = Buffer.from(body, 'base64url');
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, nonceBytes));
      decipher.setAuthTag(bytes.subarray(nonceBytes, nonceBytes + tagBytes));
      const plain = Buffer.concat([decipher.update(bytes.subarray(nonceBytes + tagBytes)), decipher.final()]);
      return plain.toString('utf8');
    } catch {
      throw new SecretKeyError(`a stored secret under key id ${id} was altered and cannot be decrypted`);
    }
  }

  /** A value the start-up pass must rewrite: still plain, or sealed under a previous key. */
  needsReseal(stored: string): boolean {
    return !stored.startsWith(`${prefix}${this.keyId}:`);
  }
}
