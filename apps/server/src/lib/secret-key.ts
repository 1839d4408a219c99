import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A 32-byte key written as 64 hex digits or as base64 / base64url (43–44 characters); else null. */
export const parseSecretKey = (text: string): Buffer | null => {
  const value = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) return null;
  const bytes = Buffer.from(value, value.includes('-') || value.includes('_') ? 'base64url' : 'base64');
  return bytes.length === 32 ? bytes : null;
};

/**
 * The key of DATA_DIR/secret.key, created (mode 0600, base64) on first start when SECRET_KEY is
 * unset. Only for one server process: several processes on one PostgreSQL must share SECRET_KEY,
 * as each would otherwise make a key of its own and could not read the others' secrets.
 * @throws Error when the file exists but does not hold a key.
 */
export const loadOrCreateKeyFile = (dataDir: string): { key: Buffer; created: boolean; path: string } => {
  const path = join(dataDir, 'secret.key');
  mkdirSync(dataDir, { recursive: true });
  // Written aside, then linked into place: link fails when the file exists, so a second start (or
  // a parallel one) never overwrites the key, and no reader sees a half-written file.
  const key = randomBytes(32);
  const draft = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(draft, `${key.toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, path);
    return { key, created: true, path };
  } catch (error) {
    if ((error as { code?: string }).code !== 'EEXIST') throw error;
  } finally {
    rmSync(draft, { force: true });
  }
  const stored = parseSecretKey(readFileSync(path, 'utf8'));
  if (!stored) throw new Error(`${path} does not hold a 32-byte key (base64 or hex)`);
  return { key: stored, created: false, path };
};
