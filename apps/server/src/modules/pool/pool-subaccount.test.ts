import { Code } from '@fbox/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import {
  createArea,
  createMaster,
  createSubAccount,
  get,
  login,
  post,
  type TestUser,
} from '../../test/factories.js';

const KEY = 'key-3f9a1c0e7b2d';
const SECRET = 'secret-9d8c7b6a5f4e3d2c1b0a';
const base = { pool: 'F2Pool', subaccount: 'site-a', coin: 'BTC' };
const api = (action: string) => `/ff-plat-api/api/admin/area/pool/${action}`;

describeDb('pool subaccounts (admin/area/pool)', () => {
  let t: TestApp;
  let master: TestUser;
  let token: string;
  let areaId: number;
  let otherAreaId: number;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    token = await login(t.app, master);
    areaId = (await createArea(t.app, master.id)).id;
    otherAreaId = (await createArea(t.app, master.id)).id;
  });
  afterEach(() => t.close());

  /** The raw answer text too, to prove a secret appears nowhere in it. */
  const call = async (action: string, body: Record<string, unknown>, tk = token) => {
    const res = await post(t.app, api(action), { area_id: areaId, ...body }, { token: tk });
    return { body: res.json(), raw: res.body };
  };
  const save = (body: Record<string, unknown>, tk = token) => call('save', body, tk);
  /** The stored row with its secrets opened (they are encrypted at rest, see secrets/). */
  const stored = async (id: number) => {
    const row = await t.app.db
      .selectFrom('pool_subaccounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const open = (v: string | null) => (v === null ? null : t.app.secrets.open(v));
    return { ...row, api_key: open(row.api_key), api_secret: open(row.api_secret) };
  };
  const rows = () => t.app.db.selectFrom('pool_subaccounts').selectAll().orderBy('id').execute();
  const expectNoSecret = (raw: string) => {
    expect(raw).not.toContain(KEY);
    expect(raw).not.toContain(SECRET);
    expect(raw).not.toMatch(/"api_(key|secret)"\s*:/);
  };

  it('stores secrets but answers only whether they are stored', async () => {
    const created = await save({
      ...base,
      observer_url: 'https://www.f2pool.com/mining-user/abc',
      api_key: KEY,
      api_secret: SECRET,
    });
    expect(created.body).toMatchObject({
      code: Code.OK,
      data: {
        area_id: areaId,
        ...base,
        observer_url: 'https://www.f2pool.com/mining-user/abc',
        has_api_key: true,
        has_api_secret: true,
      },
    });
    expectNoSecret(created.raw);
    const id = created.body.data.id as number;
    expect(await stored(id)).toMatchObject({ api_key: KEY, api_secret: SECRET });

    const listed = await call('list', {});
    expect(listed.body.data).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(listed.body.data.items[0]).toMatchObject({ id, has_api_key: true, has_api_secret: true });
    expectNoSecret(listed.raw);
    // The server side keeps them for the revenue statistics.
    expect(await t.app.pools.credentials(areaId)).toEqual([
      expect.objectContaining({ id, api_key: KEY, api_secret: SECRET }),
    ]);
  });

  it('keeps a secret saved empty, replaces a new one and removes a cleared one', async () => {
    const id = (await save({ ...base, api_key: KEY, api_secret: SECRET })).body.data.id as number;

    const kept = await save({ id, ...base, coin: 'BCH', api_key: '', api_secret: '   ' });
    expect(kept.body.data).toMatchObject({ coin: 'BCH', has_api_key: true, has_api_secret: true });
    expect(await stored(id)).toMatchObject({ coin: 'BCH', api_key: KEY, api_secret: SECRET });
    const omitted = await save({ id, ...base });
    expect(omitted.body.data).toMatchObject({ has_api_key: true, has_api_secret: true });
    expect(await stored(id)).toMatchObject({ api_key: KEY, api_secret: SECRET });

    const replaced = await save({ id, ...base, api_key: 'new-key-1234' });
    expectNoSecret(replaced.raw);
    expect(replaced.raw).not.toContain('new-key-1234');
    expect(await stored(id)).toMatchObject({ api_key: 'new-key-1234', api_secret: SECRET });

    const cleared = await save({ id, ...base, clear_api_secret: true });
    expect(cleared.body.data).toMatchObject({ has_api_key: true, has_api_secret: false });
    expect(await stored(id)).toMatchObject({ api_key: 'new-key-1234', api_secret: null });
    await save({ id, ...base, clear_api_key: '1' });
    expect(await stored(id)).toMatchObject({ api_key: null, api_secret: null });
  });

  it('writes the observer address as sent: empty means none', async () => {
    const id = (await save({ ...base, observer_url: 'http://pool.example.com/o/1' })).body.data.id as number;
    expect((await save({ id, ...base, observer_url: '' })).body.data.observer_url).toBe('');
    expect((await stored(id)).observer_url).toBe('');
  });

  describe('refuses bad input and writes nothing', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['a missing pool', { pool: undefined }, 'pool', 'rule.required'],
      ['a blank subaccount', { subaccount: ' ' }, 'subaccount', 'rule.required'],
      ['a missing coin', { coin: undefined }, 'coin', 'rule.required'],
      ['a too long pool', { pool: 'p'.repeat(65) }, 'pool', 'rule.tooLong'],
      ['a too long coin', { coin: 'c'.repeat(33) }, 'coin', 'rule.tooLong'],
      [
        'a javascript: observer address',
        { observer_url: 'javascript:alert(1)' },
        'observer_url',
        'rule.httpUrl',
      ],
      [
        'an observer address without scheme',
        { observer_url: 'f2pool.com/x' },
        'observer_url',
        'rule.httpUrl',
      ],
      [
        'a too long observer address',
        { observer_url: `https://a.io/${'x'.repeat(500)}` },
        'observer_url',
        'rule.tooLong',
      ],
      ['a too long API key', { api_key: `${KEY}${'k'.repeat(256)}` }, 'api_key', 'rule.tooLong'],
      ['a too long API secret', { api_secret: `${SECRET}${'s'.repeat(256)}` }, 'api_secret', 'rule.tooLong'],
      ['an API key that is not text', { api_key: 12345 }, 'api_key', 'rule.invalidType'],
      ['a key set and cleared at once', { api_key: KEY, clear_api_key: true }, 'api_key', 'rule.setOrClear'],
      [
        'a secret set and cleared at once',
        { api_secret: SECRET, clear_api_secret: true },
        'api_secret',
        'rule.setOrClear',
      ],
      ['a bad clear flag', { clear_api_key: 'maybe' }, 'clear_api_key', 'rule.invalid'],
      ['a bad id', { id: 'abc' }, 'id', 'rule.invalid'],
    ];
    it.each(cases)('%s', async (_name, change, field, rule) => {
      const { body, raw } = await save({ ...base, ...change });
      expect(body.code).toBe(Code.VALIDATION);
      expect(body.data.errors).toContainEqual(expect.objectContaining({ field, rule }));
      expectNoSecret(raw);
      expect(await rows()).toEqual([]);
    });

    it('leaves a stored subaccount as it was when an update is refused', async () => {
      const id = (await save({ ...base, api_key: KEY, api_secret: SECRET })).body.data.id as number;
      const before = await stored(id);
      const refused = await save({ id, ...base, coin: 'LTC', api_secret: 'other', clear_api_secret: true });
      expect(refused.body.code).toBe(Code.VALIDATION);
      expect(await stored(id)).toEqual(before);
    });
  });

  it('refuses a second subaccount with the same pool, name and coin in a mine', async () => {
    const first = (await save(base)).body.data.id as number;
    const again = await save({ ...base, api_key: KEY });
    expect(again.body).toMatchObject({
      code: Code.CONFLICT,
      data: { errors: [{ field: 'subaccount', rule: 'api.poolSubaccountTaken' }] },
    });
    expectNoSecret(again.raw);
    const second = (await save({ ...base, coin: 'BCH' })).body.data.id as number;
    expect((await save({ id: second, ...base })).body.code).toBe(Code.CONFLICT);
    expect((await stored(second)).coin).toBe('BCH');
    // Another mine may list the same one.
    expect((await call('save', { ...base, area_id: otherAreaId })).body.code).toBe(Code.OK);
    expect((await rows()).map((r) => r.id).slice(0, 2)).toEqual([first, second]);
  });

  it('answers "not found" for another mine or another mine\'s subaccount, changing nothing', async () => {
    const id = (await save({ ...base, api_key: KEY })).body.data.id as number;
    const [before] = await rows();
    const stranger = await createMaster(t.app);
    const strangerToken = await login(t.app, stranger);
    const strangerArea = (await createArea(t.app, stranger.id)).id;

    expect((await call('list', {}, strangerToken)).body.code).toBe(Code.NOT_FOUND);
    expect((await save({ id, ...base, coin: 'X' }, strangerToken)).body.code).toBe(Code.NOT_FOUND);
    expect((await call('save', { id, ...base, area_id: strangerArea }, strangerToken)).body.code).toBe(
      Code.NOT_FOUND,
    );
    expect((await call('remove', { id }, strangerToken)).body.code).toBe(Code.NOT_FOUND);
    // The same master's other mine does not hold it: not found, not moved.
    expect((await call('save', { id, ...base, area_id: otherAreaId })).body.code).toBe(Code.NOT_FOUND);
    expect((await call('remove', { id, area_id: otherAreaId })).body.code).toBe(Code.NOT_FOUND);
    expect((await call('save', { id: id + 1000, ...base })).body.code).toBe(Code.NOT_FOUND);
    expect(await rows()).toEqual([before]);

    expect((await call('remove', { id })).body.code).toBe(Code.OK);
    expect(await rows()).toEqual([]);
    expect((await call('remove', { id })).body.code).toBe(Code.NOT_FOUND);
  });

  it('lets operators read but not change; administrators change', async () => {
    const operator = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    const admin = await login(
      t.app,
      await createSubAccount(t.app, master, [areaId], { authority: 'administrator' }),
    );
    const id = (await save({ ...base, api_secret: SECRET })).body.data.id as number;

    const listed = await call('list', {}, operator);
    expect(listed.body.data.items).toEqual([expect.objectContaining({ id, has_api_secret: true })]);
    expectNoSecret(listed.raw);
    expect((await save({ ...base, coin: 'LTC' }, operator)).body.code).toBe(Code.FORBIDDEN);
    expect((await save({ id, ...base, clear_api_secret: true }, operator)).body.code).toBe(Code.FORBIDDEN);
    expect((await call('remove', { id }, operator)).body.code).toBe(Code.FORBIDDEN);
    expect((await rows()).length).toBe(1);

    expect((await save({ id, ...base, coin: 'LTC' }, admin)).body.data.coin).toBe('LTC');
    expect((await call('list', { area_id: otherAreaId }, admin)).body.code).toBe(Code.NOT_FOUND);
    expect((await call('remove', { id }, admin)).body.code).toBe(Code.OK);
  });

  it('pages and searches the list', async () => {
    for (const coin of ['BTC', 'BCH', 'LTC']) await save({ ...base, coin });
    await save({ ...base, pool: 'AntPool' });
    const page = (await call('list', { page: 2, limit: 3 })).body.data;
    expect(page).toMatchObject({ total: 4, page: 2, limit: 3 });
    expect(page.items).toHaveLength(1);
    // Default order: by pool name.
    expect((await call('list', {})).body.data.items[0].pool).toBe('AntPool');
    expect(
      (await call('list', { keyword: 'ltc' })).body.data.items.map((r: { coin: string }) => r.coin),
    ).toEqual(['LTC']);
    expect((await call('list', { limit: 501 })).body.code).toBe(Code.VALIDATION);
  });

  it('answers the list on GET too (the spec lists it under GET), with the same scope and checks', async () => {
    for (const coin of ['BTC', 'LTC']) await save({ ...base, coin });
    const viaGet = async (query: Record<string, string>, tk = token) =>
      (await get(t.app, api('list'), { area_id: String(areaId), ...query }, { token: tk })).json();
    const answer = await viaGet({ keyword: 'ltc', page: '1', limit: '10' });
    expect(answer.code).toBe(Code.OK);
    expect(answer.data.items.map((r: { coin: string }) => r.coin)).toEqual(['LTC']);
    expect(answer.data.items).toEqual((await call('list', { keyword: 'ltc' })).body.data.items);
    expect(JSON.stringify(answer)).not.toContain(KEY);
    expect((await viaGet({ limit: '501' })).data.errors[0].field).toBe('limit');
    expect((await viaGet({}, 'not-a-token')).code).toBe(Code.NOT_LOGGED_IN);
    const stranger = await login(t.app, await createMaster(t.app));
    expect((await viaGet({}, stranger)).code).toBe(Code.NOT_FOUND);
  });
});
