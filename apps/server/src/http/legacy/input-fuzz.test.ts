import { Code, type Endpoint, type EndpointName, endpoints } from '@fbox/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createFbox, createMiners, createTank } from '../../test/device-factories.js';
import { createArea, createMaster, get, login, post } from '../../test/factories.js';
import { type InputField, isIdField, leafFieldsOf, sample } from '../../test/schema-sample.js';
import { changedTables, snapshot, tableNames } from '../../test/table-snapshot.js';

/**
 * Wrong-typed numbers and flags at EVERY endpoint of the contract table (issue 10 item 6): a number
 * is a JS number or a string of decimal digits, nothing else. `z.coerce.number` once turned `true`
 * into 1, so `fbox.area/deleted {"id":true}` deleted mine 1. Driven by `endpoints`: each numeric
 * (and boolean) field of each endpoint's input, found by walking its zod schema, is sent junk by a
 * signed-in master in an otherwise valid input. The answer must be the envelope's validation error
 * naming that field, never a 5xx, and no table may change.
 */

type Json = unknown;

/** Junk for any numeric field, as JSON (POST). */
const junkJson: Json[] = [
  true,
  false,
  [],
  {},
  [1],
  { value: 1 },
  '0x10',
  '0b1',
  '0o7',
  '1e3',
  ' 1',
  '1 ',
  '1abc',
  'abc',
  'NaN',
  'Infinity',
  '-',
  '.',
  '+1',
  '1,5',
  '１２',
  '9007199254740993',
  '99999999999999999999999',
  1e21,
];
/** Junk as a query or form field arrives: always text. */
const junkText = junkJson.filter((v): v is string => typeof v === 'string').concat(['true', 'null', '[]']);
/** Missing is not junk for an optional field; for a required one it is. */
const blanks: Json[] = ['', null];
/** Ids are positive. */
const junkIds: Json[] = [0, -1, '-1', '0', 1.5, '1.5'];
/** Flags are true/false (or the forms' 1/0, 'true'/'false'), never anything truthy. */
const junkFlags: Json[] = ['yes', 'no', 2, '2', -1, 'on?', [], {}, 'TRUE '];
const junkFlagsText = ['yes', 'no', '2', '-1', 'on?', '[]', '{}', 'TRUE '];

interface Target {
  name: EndpointName;
  endpoint: Endpoint;
  field: InputField;
  kind: 'number' | 'boolean' | 'string';
}

const schemaOf = (e: Endpoint) => (e.method === 'GET' ? e.query : e.body);
const key = (path: (string | number)[]) => path.join('.');

const targets: Target[] = (Object.entries(endpoints) as [EndpointName, Endpoint][]).flatMap(([name, e]) =>
  (['number', 'boolean'] as const).flatMap((kind) =>
    leafFieldsOf(schemaOf(e), kind).map((field) => ({ name, endpoint: e, field, kind })),
  ),
);

/** Every text field of every endpoint, for U+0000 (issue 10 item 7). */
const textTargets: Target[] = (Object.entries(endpoints) as [EndpointName, Endpoint][]).flatMap(([name, e]) =>
  leafFieldsOf(schemaOf(e), 'string').map((field) => ({ name, endpoint: e, field, kind: 'string' as const })),
);

/** The junk values that must be refused at this field. */
const junkFor = (target: Target, text: boolean): Json[] => {
  const last = target.field.path.filter((p) => typeof p === 'string').at(-1) ?? '';
  const base = target.kind === 'boolean' ? (text ? junkFlagsText : junkFlags) : text ? junkText : junkJson;
  // In text, a list is comma-separated with spaces allowed around commas: " 1" and "1,5" are lists;
  // some list fields also take the list written as JSON ("[1,2]", so "[]" is the empty list).
  const list = text && target.field.path.length === 2;
  const isListText = (v: Json) =>
    typeof v === 'string' && (v.trim() !== v || v.includes(',') || v.trim().startsWith('['));
  return [
    ...base.filter((v) => !(list && isListText(v))),
    ...(target.kind === 'number' && isIdField(last) ? junkIds : []),
    // A list of one blank element, in text, is the empty list: whether that is allowed is the
    // list's own rule (a board's FBOXes: empty is the whole mine), not junk in an element.
    ...(target.field.optional || list ? [] : blanks.filter((b) => !text || b === '')),
  ];
};

/** `input` with `value` at `path` (arrays become one-element arrays). */
const withValue = (input: Record<string, unknown>, path: (string | number)[], value: Json) => {
  const out = structuredClone(input);
  let node: Record<string | number, unknown> = out;
  path.forEach((segment, i) => {
    if (i === path.length - 1) {
      node[segment] = value;
      return;
    }
    const next = path[i + 1];
    const child = typeof next === 'number' ? [] : { ...((node[segment] as object) ?? {}) };
    node[segment] = child;
    node = child as Record<string | number, unknown>;
  });
  return out;
};

/** A form post carries flat fields only (and comma lists), not nested objects. */
const formable = (target: Target) =>
  target.endpoint.method === 'POST' &&
  (target.field.path.length === 1 || (target.field.path.length === 2 && target.field.path[1] === 0));

const asQuery = (input: Record<string, unknown>) =>
  Object.fromEntries(
    Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
  ) as Record<string, string>;

describeDb('input fuzz: every endpoint refuses wrong-typed numbers and flags', () => {
  let t: TestApp;
  let token: string;
  let areaId: number;
  let names: string[];

  beforeAll(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app, { username: 'fuzz_master' });
    token = await login(t.app, master);
    // A mine with devices at id 1, where `true`, `[1]` or "1abc" would land if coerced.
    areaId = (await createArea(t.app, master.id, 'Demo Mine')).id;
    const fbox = await createFbox(t.app, areaId, { name: 'Demo box' });
    const tank = await createTank(t.app, fbox, 1);
    await createMiners(t.app, fbox, [{ sn: 'FUZZ-1', worker: 'fuzz.w1', tank_id: tank }]);
    names = await tableNames(t.app);
  });
  afterAll(() => t?.close());

  /** A valid input for the target's endpoint, every id pointing at the demo mine's objects. */
  const validInput = (target: Target) =>
    sample(schemaOf(target.endpoint)!, { ref: () => areaId }) as Record<string, unknown>;

  const expectRefused = async (target: Target, junk: Json, form: boolean, rule?: string) => {
    const { endpoint, field } = target;
    const input = withValue(validInput(target), field.path, junk);
    const res =
      endpoint.method === 'GET'
        ? await get(t.app, endpoint.path, asQuery(input), { token })
        : await post(t.app, endpoint.path, form ? asQuery(input) : input, { token, form });
    const where = `${target.name} ${key(field.path)}=${JSON.stringify(junk)}${form ? ' (form)' : ''}`;
    expect(res.statusCode, `${where}: ${res.body.slice(0, 200)}`).toBe(200);
    const answer = res.json();
    expect(answer.code, `${where}: ${res.body.slice(0, 300)}`).toBe(Code.VALIDATION);
    const fields: string[] = answer.data.errors.map((e: { field: string }) => e.field);
    const named = answer.data.errors.filter(
      (e: { field: string }) => e.field === key(field.path) || key(field.path).startsWith(`${e.field}.`),
    );
    expect(named.length, `${where}: errors name ${fields.join(', ')}`).toBeGreaterThan(0);
    if (rule) expect(named[0].rule, where).toBe(rule);
  };

  it('finds the numeric fields of the endpoints (the walker reads the schemas)', () => {
    const endpointsWithNumbers = new Set(targets.filter((x) => x.kind === 'number').map((x) => x.name));
    expect(endpointsWithNumbers.size).toBeGreaterThan(60);
    expect(targets.some((x) => x.name === 'areaDelete' && key(x.field.path) === 'id')).toBe(true);
  });

  it('does not delete mine 1 for {"id": true} (the Demo Mine incident)', async () => {
    const res = await post(t.app, '/index/fbox.area/deleted', { id: true }, { token });
    expect(res.json()).toMatchObject({ code: Code.VALIDATION, data: { errors: [{ field: 'id' }] } });
    const mine = await t.app.db.selectFrom('areas').select('id').where('id', '=', areaId).executeTakeFirst();
    expect(mine).toEqual({ id: areaId });
  });

  it('refuses junk at every numeric and flag field of every endpoint and changes nothing', async () => {
    const before = await snapshot(t.app, names);
    // Every field meets the two classes of the incident (a boolean and a hex string) ...
    for (const target of targets) {
      const text = target.endpoint.method === 'GET';
      const [first, second] =
        target.kind === 'boolean' ? ['yes', 2] : text ? ['true', '0x10'] : [true, '0x10'];
      await expectRefused(target, first, false);
      await expectRefused(target, second, false);
    }
    // ... and a sample of every other junk value, as JSON or as a form post.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...targets).chain((target) =>
          fc.record({
            target: fc.constant(target),
            form: formable(target) ? fc.boolean() : fc.constant(false),
          }),
        ),
        fc.nat(),
        async ({ target, form }, pick) => {
          const text = form || target.endpoint.method === 'GET';
          const junk = junkFor(target, text);
          await expectRefused(target, junk[pick % junk.length], form);
        },
      ),
      { numRuns: 250 },
    );
    expect(changedTables(before, await snapshot(t.app, names))).toEqual([]);
  });

  it('refuses U+0000 in every text field of every endpoint, with no 500 on PostgreSQL', async () => {
    expect(textTargets.length).toBeGreaterThan(100);
    const before = await snapshot(t.app, names);
    for (const target of textTargets) {
      await expectRefused(target, 'Demo\u0000Mine', false, 'rule.nulChar');
      if (formable(target)) await expectRefused(target, '\u0000', true, 'rule.nulChar');
    }
    expect(changedTables(before, await snapshot(t.app, names))).toEqual([]);
    const zh = await post(
      t.app,
      '/index/fbox.user/setuserinfo',
      { nickname: 'a\u0000' },
      { token, headers: { lang: 'zh-cn' } },
    );
    expect(zh.json()).toMatchObject({ code: Code.VALIDATION, msg: '昵称：不能包含空字符（U+0000）' });
  });
});
