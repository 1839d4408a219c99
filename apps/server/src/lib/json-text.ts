/**
 * JSON text of a value of type `T` made by something else (the database), sent as it is. A list
 * page's rows built as JSON by PostgreSQL or SQLite skip decoding ~1,300 values, building 50
 * objects and serializing them again: half of a miner list request's CPU on PostgreSQL.
 */
export class JsonText<T> {
  /** Only for the type checker: which value the text encodes. */
  declare readonly encodes?: T;

  constructor(readonly text: string) {}
}

/** `T` with any of its own fields possibly given as JSON text of that field. */
export type WithJsonText<T> = T extends object ? { [K in keyof T]: T[K] | JsonText<T[K]> } : T;

/** Whether any own field of `value` is JSON text (only then must it be serialized by `stringifyWithJsonText`). */
export const hasJsonText = (value: unknown): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  for (const key in value) if ((value as Record<string, unknown>)[key] instanceof JsonText) return true;
  return false;
};

/**
 * JSON of an object whose own fields may be JSON text, spliced in unparsed. The other fields are
 * serialized as JSON.stringify would (undefined ones left out), so the result parses to the same
 * value as if the text had been parsed first.
 */
export const stringifyWithJsonText = (value: object): string => {
  const parts: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    const json = field instanceof JsonText ? field.text : JSON.stringify(field);
    if (json !== undefined) parts.push(`${JSON.stringify(key)}:${json}`);
  }
  return `{${parts.join(',')}}`;
};

/** The value of a field that may be given as JSON text (a file export reads the rows a page gets). */
export const jsonValue = <T>(field: T | JsonText<T>): T =>
  field instanceof JsonText ? (JSON.parse(field.text) as T) : field;
