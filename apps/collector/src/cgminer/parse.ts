import { ApiError } from './client.js';

/**
 * Reading CGMiner-family API replies as real firmwares write them, not only as the API-README
 * says: the JSON may end with a NUL (removed by the transport), Antminer (BMMiner) `stats` writes
 * two array elements without the comma between them (`…"Type":"Antminer S9"}{"STATS":0,…`), some
 * builds print `nan`/`inf` for numbers, raw control characters inside strings and a comma before a
 * closing bracket. `repairJson` fixes exactly these, outside string literals, and nothing else.
 */

export type ApiObject = Record<string, unknown>;

const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\r' || c === '\t';

/** The next character after `from` that is not white space, or ''. */
const peek = (text: string, from: number): string => {
  for (let i = from; i < text.length; i++) if (!isSpace(text[i]!)) return text[i]!;
  return '';
};

const numberToken = /-?\d+(\.\d*)?([eE][-+]?\d+)?/y;
const wordToken = /-?[A-Za-z]+/y;

export const repairJson = (text: string): string => {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') {
        out += c + (text[i + 1] ?? '');
        i++;
      } else if (c === '"') {
        inString = false;
        out += c;
      } else if (c < ' ') {
        out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      } else out += c;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '}' || c === ']') {
      out += c;
      // `}{` / `]{` / `}[` between elements: the missing comma.
      const next = peek(text, i + 1);
      if (next === '{' || next === '[' || next === '"') out += ',';
    } else if (c === ',') {
      const next = peek(text, i + 1);
      if (next !== '}' && next !== ']') out += c;
    } else if (c === '-' || (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) {
      numberToken.lastIndex = i;
      const number = numberToken.exec(text);
      if (number && number[0] !== '-' && number[0] !== '') {
        out += number[0];
        i += number[0].length - 1;
        continue;
      }
      // A bare word: true/false/null stay, nan/inf (any case, signed) become null.
      wordToken.lastIndex = i;
      const word = wordToken.exec(text)?.[0] ?? c;
      const lower = word.toLowerCase().replace(/^-/, '');
      if (lower === 'nan' || lower === 'inf' || lower === 'infinity') out += 'null';
      else out += word;
      i += word.length - 1;
    } else out += c;
  }
  return out;
};

/**
 * BMMiner's missing comma between two objects (`…}{"STATS":0…`): a `}` then `{` opening a key.
 * Inside a string `}{"` would close the string, and a key cannot follow a closed string, so this
 * never matches string content of valid JSON.
 */
const missingComma = /\}(\s*)\{(?="[^"\\]*"\s*:)/g;

const tryParse = (text: string): { value: unknown } | null => {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
};

/**
 * Parses a reply. Antminer `stats` replies carry the missing comma on every poll, so it is put
 * back by a cheap replace and the common case parses once; anything else JSON.parse refuses goes
 * through `repairJson`, character by character.
 */
export const parseJsonReply = (text: string): ApiObject => {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{'))
    throw new ApiError(`not a JSON answer: ${JSON.stringify(trimmed.slice(0, 40))}`, 'invalid');
  let parsed = tryParse(trimmed.includes('}{') ? trimmed.replace(missingComma, '},$1{') : trimmed);
  if (!parsed) {
    try {
      parsed = { value: JSON.parse(repairJson(trimmed)) };
    } catch (error) {
      throw new ApiError(`invalid JSON answer: ${(error as Error).message}`, 'invalid');
    }
  }
  const { value } = parsed;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ApiError('JSON answer is not an object', 'invalid');
  return value as ApiObject;
};

export interface ApiStatus {
  /** S success, I info, W warning, E error, F fatal (API-README); other text as the firmware wrote it. */
  status: string;
  code: number | null;
  msg: string;
  description: string;
}

/** The STATUS section: `[{STATUS, When, Code, Msg, Description}]`, or BMMiner's bare `{"STATUS":"RESTART"}`. */
export const statusOf = (reply: ApiObject): ApiStatus | null => {
  const raw = reply.STATUS;
  const first = Array.isArray(raw) ? raw[0] : raw;
  if (typeof first === 'string') return { status: first, code: null, msg: first, description: '' };
  if (typeof first !== 'object' || first === null) return null;
  const section = first as ApiObject;
  return {
    status: String(section.STATUS ?? ''),
    code: typeof section.Code === 'number' ? section.Code : null,
    msg: String(section.Msg ?? ''),
    description: String(section.Description ?? ''),
  };
};

/** True when the status says the command failed (E error, F fatal). */
export const isError = (status: ApiStatus | null): boolean =>
  status?.status === 'E' || status?.status === 'F';

/**
 * One command's reply inside a combined answer (`summary+stats` → `{"summary":[{…}],"stats":[{…}],"id":1}`;
 * the API-README shows objects, cgminer writes one-element arrays: both are read).
 */
export const commandPart = (combined: ApiObject, command: string): ApiObject | null => {
  const part = combined[command];
  const first = Array.isArray(part) ? part[0] : part;
  return typeof first === 'object' && first !== null ? (first as ApiObject) : null;
};

/** A reply's section (`SUMMARY`, `STATS`, `POOLS` …) as a list of objects; [] when absent. */
export const section = (reply: ApiObject | null | undefined, name: string): ApiObject[] => {
  const value = reply?.[name];
  if (!Array.isArray(value)) return typeof value === 'object' && value !== null ? [value as ApiObject] : [];
  return value.filter((item): item is ApiObject => typeof item === 'object' && item !== null);
};

/** A number from a value the API wrote as a number or as a numeric string; null otherwise. */
export const num = (value: unknown): number | null => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(value)) return Number(value);
  return null;
};

/** Hash rate unit prefixes the CGMiner family uses in key names and `rate_unit`, as a factor to TH/s. */
const toTera: Record<string, number> = { K: 1e-9, M: 1e-6, G: 1e-3, T: 1, P: 1e3 };

/** Converts `value` in `unit` (`GH`, `MH`, `GH/s`, `TH` …) to TH/s; null for an unknown unit. */
export const toTeraHash = (value: number, unit: string): number | null => {
  const factor = toTera[unit.trim().charAt(0).toUpperCase()];
  return factor === undefined ? null : value * factor;
};

/**
 * A hash rate of `window` (`5s`, `av`, `1m` …) from a SUMMARY/STATS object, in TH/s, whatever unit
 * its key names: `GHS 5s` (BMMiner, Antminer: GH/s), `MHS 5s` (cgminer, Avalon, Braiins OS: MH/s),
 * `KHS`/`THS` where a firmware uses them. Null when the object has none.
 */
export const hashrateOf = (object: ApiObject | null | undefined, window: string): number | null => {
  if (!object) return null;
  for (const prefix of ['T', 'G', 'M', 'K']) {
    const value = num(object[`${prefix}HS ${window}`]);
    if (value !== null) return toTeraHash(value, prefix);
  }
  return null;
};

/**
 * Avalon's `MM ID<n>` text: `Ver[1246-83-21042601_4ec6bb0] DNA[02010000a1b2c3d4] Elapsed[600]
 * TMax[83] Fan1[5280] PS[0 1215 1277 227 2898 1277 3270] …` → `{Ver: '1246-…', PS: '0 1215 …'}`.
 * A value may hold spaces and nested brackets (`MH[0 0 0]`, `SF0[…]`): brackets are matched.
 */
export const parseBracketFields = (text: string): Record<string, string> => {
  const fields: Record<string, string> = {};
  const key = /([A-Za-z][A-Za-z0-9_ ]*?)\[/y;
  let i = 0;
  while (i < text.length) {
    while (i < text.length && isSpace(text[i]!)) i++;
    key.lastIndex = i;
    const match = key.exec(text);
    if (!match) {
      const next = text.indexOf(' ', i);
      if (next < 0) break;
      i = next + 1;
      continue;
    }
    let depth = 1;
    let j = key.lastIndex;
    while (j < text.length && depth > 0) {
      if (text[j] === '[') depth++;
      else if (text[j] === ']') depth--;
      j++;
    }
    const name = match[1]!.trim();
    if (!(name in fields)) fields[name] = text.slice(key.lastIndex, depth === 0 ? j - 1 : j).trim();
    i = j;
  }
  return fields;
};

/** Numbers in a space- or dash-separated list (`47-47-62-62`, `0 1215 1277`); non-numbers dropped. */
export const numberList = (value: unknown): number[] => {
  if (typeof value === 'number') return Number.isFinite(value) ? [value] : [];
  if (typeof value !== 'string') return [];
  return value
    .split(/[\s,]+|(?<=\d)-/)
    .map((part) => num(part))
    .filter((n): n is number => n !== null);
};
