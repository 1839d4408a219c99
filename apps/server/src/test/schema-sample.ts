import type { z } from 'zod';

/**
 * Builds a valid input for an endpoint from its zod schema, so table-driven tests (the isolation
 * sweep) can call every endpoint without hand-written bodies. Id-like fields (`id`, `ids`, `*_id`,
 * `*_ids`) take their value from `ref`, which is how a test points them at a chosen object. Other
 * fields get the smallest value their checks allow; a field whose rule cannot be read from the
 * schema (a regex, a refinement) is taught here by name in `samples`.
 */

/** Whether a field names an object by id. */
export const isIdField = (name: string): boolean => name === 'id' || name === 'ids' || /_ids?$/.test(name);

/**
 * Valid values of fields whose rule the walker cannot derive (regexes, refinements). Add one here
 * when the sweep says "teach the generator about <field>".
 */
export const samples: Record<string, unknown> = {
  email: 'sample@example.com',
  mobile: '86 13800138000',
  time_zone: 'UTC+8',
  code: '123456',
  electricity_hz: 50,
  reporting_interval: 30,
  interval: 60,
  from: 1_735_689_600_000,
  to: 1_735_693_200_000,
  mac: '00:11:22:33:44:55',
  collector1_mac: '00:11:22:33:44:55',
  collector2_mac: '00:11:22:33:44:66',
  password: 'Sample-pass-1',
  oldpassword: 'Sample-pass-1',
  countryCode: '86',
  number: '13800138000',
  keyword: 'sample',
  pool_address: 'stratum+tcp://pool.example.com:3333',
  link: 'https://pool.example.com/observer',
  voltage_min: 360,
  reboot_interval_seconds: 1800,
  start_at: 1_735_689_600_000,
  end_at: 1_735_776_000_000,
  voltage_max: 400,
  observer_url: 'https://pool.example.com/observer',
  threshold: 40,
  from_day: '2025-01-01',
  to_day: '2025-01-07',
  stream: 'live/sample',
};

export interface SampleOptions {
  /** The value of an id-like field; undefined when the test has no object for that name. */
  ref: (field: string) => number | string | undefined;
}

export class UnknownReference extends Error {
  constructor(readonly field: string) {
    super(`no object for id field "${field}"`);
  }
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  options?: z.ZodType[];
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: z.ZodType;
  out?: z.ZodType;
  checks?: { _zod: { def: Record<string, unknown> } }[];
};

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (def: Def) => (def.checks ?? []).map((c) => c._zod.def);

/** Whether the schema (through optional/default/pipe wrappers) accepts a missing value. */
const isOptional = (schema: z.ZodType): boolean => {
  const def = defOf(schema);
  if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') return true;
  if (def.type === 'pipe') return isOptional(def.out!);
  return false;
};

const numberSample = (def: Def): number => {
  let min: number | undefined;
  let max: number | undefined;
  for (const check of checksOf(def)) {
    if (check.check === 'greater_than') min = Number(check.value) + (check.inclusive ? 0 : 1);
    if (check.check === 'less_than') max = Number(check.value) - (check.inclusive ? 0 : 1);
  }
  if (min !== undefined) return min;
  if (max !== undefined) return Math.min(max, 1);
  return 1;
};

const stringSample = (def: Def): string => {
  let min = 1;
  let max = 64;
  for (const check of checksOf(def)) {
    if (check.check === 'min_length') min = Number(check.minimum);
    if (check.check === 'max_length') max = Number(check.maximum);
    if (check.check === 'string_format' && check.format === 'email') return samples.email as string;
  }
  return 'sample'.padEnd(Math.max(min, 1), 'x').slice(0, Math.max(max, min));
};

/**
 * A value for `schema` at field `name`. Optional fields are left out unless id-like (the sweep wants
 * every reference filled) or taught in `samples`.
 */
export const sample = (schema: z.ZodType, options: SampleOptions, name = ''): unknown => {
  const def = defOf(schema);
  if (name && isIdField(name)) {
    const value = options.ref(name);
    if (value === undefined) throw new UnknownReference(name);
    const list = defOf(unwrap(schema)).type === 'array' || name.endsWith('ids');
    return list ? [value] : value;
  }
  if (name && name in samples) return samples[name];
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
      return sample(def.innerType!, options, name);
    case 'pipe':
      return defOf(def.in!).type === 'transform'
        ? sample(def.out!, options, name)
        : sample(def.in!, options, name);
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, field] of Object.entries(def.shape ?? {})) {
        if (isOptional(field) && !isIdField(key) && !(key in samples)) continue;
        out[key] = sample(field, options, key);
      }
      return out;
    }
    case 'array': {
      const min = checksOf(def).find((c) => c.check === 'min_length');
      return Array.from({ length: Math.max(1, Number(min?.minimum ?? 1)) }, () =>
        sample(def.element!, options, ''),
      );
    }
    case 'number':
    case 'int':
      return numberSample(def);
    case 'string':
      return stringSample(def);
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries ?? {})[0];
    case 'literal':
      return def.values?.[0];
    case 'union':
      return sample(def.options![0]!, options, name);
    case 'record':
    case 'unknown':
    case 'any':
      return {};
    default:
      return undefined;
  }
};

/** The schema under optional/default/pipe wrappers (a preprocess's target, a transform's source). */
const unwrap = (schema: z.ZodType): z.ZodType => {
  const def = defOf(schema);
  if (['optional', 'default', 'prefault', 'nullable'].includes(def.type)) return unwrap(def.innerType!);
  if (def.type === 'pipe') return unwrap(defOf(def.in!).type === 'transform' ? def.out! : def.in!);
  return schema;
};

/** Id-like fields of an object schema (through refinements and wrappers). */
export const idFieldsOf = (schema: z.ZodType | undefined): string[] => {
  if (!schema) return [];
  const def = defOf(unwrap(schema));
  return def.type === 'object' ? Object.keys(def.shape ?? {}).filter(isIdField) : [];
};

/** A field of an input schema: its path and whether the request may leave it out. */
export interface InputField {
  path: (string | number)[];
  optional: boolean;
}

/**
 * The fields of `schema` whose value is a number (or, by `kind`, a flag or a text), through
 * objects, arrays (first element) and wrappers, so the input fuzz can send each a wrong value.
 */
export const leafFieldsOf = (
  schema: z.ZodType | undefined,
  kind: 'number' | 'boolean' | 'string' = 'number',
  path: (string | number)[] = [],
  optional = false,
): InputField[] => {
  if (!schema) return [];
  const def = defOf(schema);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
      return leafFieldsOf(def.innerType!, kind, path, true);
    case 'pipe':
      return defOf(def.in!).type === 'transform'
        ? leafFieldsOf(def.out!, kind, path, optional)
        : leafFieldsOf(def.in!, kind, path, optional);
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, field]) =>
        leafFieldsOf(field, kind, [...path, key], false),
      );
    case 'array':
      return leafFieldsOf(def.element!, kind, [...path, 0], false);
    default:
      return def.type === kind ? [{ path, optional }] : [];
  }
};
