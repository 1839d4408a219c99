/**
 * What the operation log keeps of a call's input: secrets masked, long lists and texts shortened,
 * and a short "target" naming what the call acted on.
 */

export const MASK = '***';

/** Words of a key: `googleCode` → google, code; `api_secret` → api, secret; `mqtt-password` → … */
const wordsOf = (key: string): string[] =>
  key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/**
 * Whether a field holds a secret: any word containing password/passwd/pwd/secret/token/credential
 * (`oldpassword`, `logintoken`), or a word ending in key/code/otp (`googleCode`, `agent_key`,
 * `apikey`, `code`). `keyword` is not a secret. Over-masking is the safe side.
 */
export const isSecretKey = (key: string): boolean =>
  wordsOf(key).some(
    (word) => /password|passwd|pwd|secret|token|credential/.test(word) || /(key|code|otp)$/.test(word),
  );

const MAX_ITEMS = 50;
const MAX_TEXT = 500;

/**
 * The input with every secret replaced by `***` (at any depth, whatever its value), lists cut to
 * 50 items (plus a "… +N" marker) and texts to 500 characters, so a 10,000-miner batch stays small.
 */
export const maskParams = (value: unknown, depth = 0): unknown => {
  if (depth > 8) return MASK;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ITEMS).map((item) => maskParams(item, depth + 1));
    return value.length > MAX_ITEMS ? [...kept, `… +${value.length - MAX_ITEMS}`] : kept;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = isSecretKey(key) ? MASK : maskParams(item, depth + 1);
    }
    return out;
  }
  return value ?? null;
};

const listText = (ids: unknown[]): string =>
  ids.length > 20 ? `${ids.slice(0, 20).join(',')},… (+${ids.length - 20})` : ids.join(',');

/**
 * What a call named: `#id` or the ids of a batch, and a name field (`name`, `area_name`,
 * `username`, `task_name`…) when the input has one. Secrets never appear here (only ids and names).
 */
export const targetOf = (input: unknown): string => {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return '';
  const fields = input as Record<string, unknown>;
  const parts: string[] = [];
  const ids = fields.ids;
  if (Array.isArray(ids) && ids.length > 0) parts.push(`#${listText(ids)}`);
  else if (typeof ids === 'string' && ids !== '') parts.push(`#${listText(ids.split(','))}`);
  if (typeof fields.id === 'number' || (typeof fields.id === 'string' && fields.id !== ''))
    parts.push(`#${fields.id}`);
  const nameKey = Object.keys(fields).find(
    (key) => (key === 'name' || key.endsWith('_name') || key === 'username') && !isSecretKey(key),
  );
  const name = nameKey ? fields[nameKey] : undefined;
  if (typeof name === 'string' && name.trim() !== '') parts.push(name.trim());
  return parts.join(' ').slice(0, MAX_TEXT);
};
