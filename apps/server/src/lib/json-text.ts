/**
 * JSON text of a value of type `T` made by something else (the database), sent as it is. A list
 * page's rows built as JSON by PostgreSQL or SQLite skip decoding ~1,300 values, building 50
 * objects and serializing them again: half of a miner list request's CPU on PostgreSQL.
 *
 * The text is kept as pieces and only written out into the response's bytes (`jsonBytes`): joining
 * a statistic's stored days into one string of a megabyte cost V8 4–5 ms per copy on a 2-core
 * machine (strings that size live in their own pages), and a response was copied four times on
 * its way out; writing the pieces into one buffer takes 0.3 ms.
 */
export class JsonText<T> {
  /** Only for the type checker: which value the text encodes. */
  declare readonly encodes?: T;
  /** The text, in pieces to be written one after another. */
  readonly pieces: readonly string[];

  constructor(text: string | readonly string[]) {
    this.pieces = typeof text === 'string' ? [text] : text;
  }

  /**
   * A JSON array whose items are given as comma-separated lists of items' JSON (a stored day's
   * rows), in order; empty lists add nothing.
   */
  static array<T>(lists: readonly string[]): JsonText<T[]> {
    const pieces = ['['];
    for (const list of lists) {
      if (list === '') continue;
      if (pieces.length > 1) pieces.push(',');
      pieces.push(list);
    }
    pieces.push(']');
    return new JsonText<T[]>(pieces);
  }

  /** The whole text as one string (a file export parsing the rows a page gets). */
  get text(): string {
    return this.pieces.join('');
  }
}

/** `T` with any of its own fields possibly given as JSON text of that field. */
export type WithJsonText<T> = T extends object ? { [K in keyof T]: T[K] | JsonText<T[K]> } : T;

/** Whether `value` is a plain object with JSON text in an own field, or in a field's plain object (at any depth). */
export const hasJsonText = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  for (const key in value) {
    const field = (value as Record<string, unknown>)[key];
    if (field instanceof JsonText || hasJsonText(field)) return true;
  }
  return false;
};

/** Appends the pieces of `value`'s JSON to `out`: JSON text as it is, the rest as JSON.stringify gives it. */
const appendPieces = (value: object, out: string[]) => {
  let separator = '{';
  for (const [key, field] of Object.entries(value)) {
    if (field instanceof JsonText) {
      out.push(`${separator}${JSON.stringify(key)}:`);
      for (const piece of field.pieces) out.push(piece);
    } else if (hasJsonText(field)) {
      out.push(`${separator}${JSON.stringify(key)}:`);
      appendPieces(field as object, out);
    } else {
      const json = JSON.stringify(field);
      if (json === undefined) continue;
      out.push(`${separator}${JSON.stringify(key)}:${json}`);
    }
    separator = ',';
  }
  out.push(separator === '{' ? '{}' : '}');
};

/**
 * The UTF-8 JSON of an object whose fields (or nested objects' fields) may be JSON text, spliced in
 * unparsed. The other fields are serialized as JSON.stringify would (undefined ones left out), so
 * the bytes parse to the same value as if the text had been parsed first.
 */
export const jsonBytes = (value: object): Buffer => {
  const pieces: string[] = [];
  appendPieces(value, pieces);
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece);
  // Outside the small-buffer pool: a response is sent and dropped whole.
  const bytes = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (const piece of pieces) at += bytes.write(piece, at);
  return bytes;
};

/** The value of a field that may be given as JSON text (a file export reads the rows a page gets). */
export const jsonValue = <T>(field: T | JsonText<T>): T =>
  field instanceof JsonText ? (JSON.parse(field.text) as T) : field;
