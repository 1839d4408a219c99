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

const valid = {
  pool: 'F2Pool',
  subaccount: 'site-a',
  coin: 'BTC',
  link: 'https://www.f2pool.com/mining-user/abc?user_name=site-a',
};

describeDb('observer links (fbox.pool)', () => {
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

  const create = async (body: Record<string, unknown>, tk = token, options: { form?: boolean } = {}) =>
    (
      await post(t.app, '/index/fbox.pool/create', { area_id: areaId, ...body }, { token: tk, ...options })
    ).json();
  const remove = async (id: number, area = areaId, tk = token) =>
    (await post(t.app, '/index/fbox.pool/deleted', { area_id: area, id }, { token: tk })).json();
  const list = async (query: Record<string, string | number> = {}, tk = token) =>
    (
      await get(
        t.app,
        '/index/fbox.pool/index',
        Object.fromEntries(Object.entries({ area_id: areaId, ...query }).map(([k, v]) => [k, String(v)])),
        { token: tk },
      )
    ).json();
  const rowCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('observer_links')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates a link with trimmed fields, lists it newest first and deletes it', async () => {
    const created = await create({
      pool: '  F2Pool ',
      subaccount: ' site-a',
      coin: 'BTC ',
      link: ` ${valid.link} `,
    });
    expect(created).toMatchObject({ code: Code.OK, data: { area_id: areaId, ...valid } });
    const second = (await create({ ...valid, pool: 'AntPool', link: 'http://antpool.com/observer?k=1' }))
      .data;

    const page = (await list()).data;
    expect(page).toMatchObject({ total: 2, page: 1, limit: 20 });
    expect(page.items.map((l: { id: number }) => l.id)).toEqual([second.id, created.data.id]);
    expect((await list({ keyword: 'ant' })).data.items.map((l: { pool: string }) => l.pool)).toEqual([
      'AntPool',
    ]);
    expect((await list({ limit: 1, page: 2, sort: 'pool' })).data.items[0].pool).toBe('F2Pool');

    expect(await remove(created.data.id)).toMatchObject({ code: Code.OK });
    expect((await list()).data.total).toBe(1);
  });

  it('accepts the legacy form encoding', async () => {
    expect(await create(valid, token, { form: true })).toMatchObject({ code: Code.OK, data: valid });
  });

  describe('refuses bad input and writes nothing', () => {
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['a missing pool', { pool: undefined }, 'pool', 'rule.required'],
      ['a blank subaccount', { subaccount: '   ' }, 'subaccount', 'rule.required'],
      ['a missing coin', { coin: undefined }, 'coin', 'rule.required'],
      ['a missing link', { link: undefined }, 'link', 'rule.required'],
      ['a blank link', { link: '  ' }, 'link', 'rule.required'],
      ['a too long pool', { pool: 'p'.repeat(65) }, 'pool', 'rule.tooLong'],
      ['a too long subaccount', { subaccount: 's'.repeat(65) }, 'subaccount', 'rule.tooLong'],
      ['a too long coin', { coin: 'c'.repeat(33) }, 'coin', 'rule.tooLong'],
      ['a too long link', { link: `https://x.io/${'a'.repeat(500)}` }, 'link', 'rule.tooLong'],
      ['a javascript: link', { link: 'javascript:alert(1)' }, 'link', 'rule.httpUrl'],
      ['a data: link', { link: 'data:text/html,<script>alert(1)</script>' }, 'link', 'rule.httpUrl'],
      ['an ftp link', { link: 'ftp://pool.example.com' }, 'link', 'rule.httpUrl'],
      ['a link without scheme', { link: 'www.f2pool.com' }, 'link', 'rule.httpUrl'],
      ['a link without slashes', { link: 'http:f2pool.com' }, 'link', 'rule.httpUrl'],
      ['a link without host', { link: 'https://' }, 'link', 'rule.httpUrl'],
      ['a link with a space', { link: 'https://f2pool.com/a b' }, 'link', 'rule.httpUrl'],
      ['a link with a tab', { link: 'https://f2pool.com/\tb' }, 'link', 'rule.httpUrl'],
      ['a protocol-relative link', { link: '//f2pool.com' }, 'link', 'rule.httpUrl'],
      ['a number as pool', { pool: 12 }, 'pool', 'rule.invalidType'],
    ];
    it.each(cases)('%s', async (_name, change, field, rule) => {
      const body = await create({ ...valid, ...change });
      expect(body.code).toBe(Code.VALIDATION);
      expect(body.data.errors).toContainEqual(expect.objectContaining({ field, rule }));
      expect(await rowCount()).toBe(0);
    });

    it('names the field in the localized message', async () => {
      const res = await post(
        t.app,
        '/index/fbox.pool/create',
        { area_id: areaId, ...valid, link: 'javascript:alert(1)' },
        { token, headers: { lang: 'zh-cn' } },
      );
      expect(res.json().msg).toBe('链接：必须是 http:// 或 https:// 地址');
    });
  });

  it('answers "not found" for another mine or another mine\'s link, changing nothing', async () => {
    const stranger = await createMaster(t.app);
    const strangerArea = (await createArea(t.app, stranger.id)).id;
    const strangerToken = await login(t.app, stranger);
    expect((await create(valid, strangerToken)).code).toBe(Code.NOT_FOUND);
    expect((await list({}, strangerToken)).code).toBe(Code.NOT_FOUND);
    expect(await rowCount()).toBe(0);

    const link = (await create(valid)).data;
    expect((await remove(link.id, areaId, strangerToken)).code).toBe(Code.NOT_FOUND);
    expect((await remove(link.id, strangerArea, strangerToken)).code).toBe(Code.NOT_FOUND);
    // The same master's other mine does not hold it either.
    expect((await remove(link.id, otherAreaId)).code).toBe(Code.NOT_FOUND);
    expect((await list({ area_id: otherAreaId })).data.total).toBe(0);
    expect(await rowCount()).toBe(1);
    expect((await remove(link.id + 1000)).code).toBe(Code.NOT_FOUND);
  });

  it('lets operators read but not change; administrators change their mines only', async () => {
    const operator = await login(t.app, await createSubAccount(t.app, master, [areaId]));
    const admin = await login(
      t.app,
      await createSubAccount(t.app, master, [areaId], { authority: 'administrator' }),
    );

    const link = (await create(valid)).data;
    expect((await list({}, operator)).data.total).toBe(1);
    expect((await create(valid, operator)).code).toBe(Code.FORBIDDEN);
    expect((await remove(link.id, areaId, operator)).code).toBe(Code.FORBIDDEN);
    expect(await rowCount()).toBe(1);

    expect((await create({ ...valid, coin: 'LTC' }, admin)).code).toBe(Code.OK);
    expect((await remove(link.id, areaId, admin)).code).toBe(Code.OK);
    // A mine the administrator does not manage is "not found".
    expect((await list({ area_id: otherAreaId }, admin)).code).toBe(Code.NOT_FOUND);
    expect(
      (
        await post(t.app, '/index/fbox.pool/create', { ...valid, area_id: otherAreaId }, { token: admin })
      ).json().code,
    ).toBe(Code.NOT_FOUND);
    expect(await rowCount()).toBe(1);
  });

  it('goes with its mine', async () => {
    await create(valid);
    await t.app.areas.delete(master.id, areaId);
    expect(await rowCount()).toBe(0);
  });
});
