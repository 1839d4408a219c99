import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createMaster, get, login, post } from '../test/factories.js';

const INDEX = '<!doctype html><title>FBOX Cloud System</title><div id="root"></div>';
const html = { accept: 'text/html,application/xhtml+xml' };
const bundle = Buffer.from(`${'export const x = "FBOX Cloud";\n'.repeat(2000)}`);

describeDb('static SPA', () => {
  let dist: string;
  let t: TestApp;
  beforeAll(() => {
    dist = mkdtempSync(join(tmpdir(), 'fbox-web-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'x-abc123.js'), 'console.log(1)');
    writeFileSync(join(dist, 'favicon.ico'), 'icon');
    // A bundle with the build's precompressed copies (apps/web/build/precompress.ts).
    writeFileSync(join(dist, 'assets', 'big-abc123.js'), bundle);
    writeFileSync(join(dist, 'assets', 'big-abc123.js.br'), brotliCompressSync(bundle));
    writeFileSync(join(dist, 'assets', 'big-abc123.js.gz'), gzipSync(bundle));
    // What the build lists for a console page (apps/web/build/console-preload.ts).
    mkdirSync(join(dist, '.vite'));
    const files = (texts: string) => [
      { path: '/assets/index-1.css', as: 'style' },
      { path: '/assets/index-1.js', as: 'script' },
      { path: `/assets/${texts}-1.js`, as: 'script' },
    ];
    writeFileSync(
      join(dist, '.vite', 'console-preload.json'),
      JSON.stringify({ en: files('texts-en'), zh: files('texts-zh'), barePaths: ['/login', '/tankBoard'] }),
    );
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));
  beforeEach(async () => {
    t = await buildTestApp({ config: { webDist: dist } });
  });
  afterEach(() => t.close());

  it('answers page routes with index.html, never cached', async () => {
    for (const url of [
      '/',
      '/index',
      '/index?x=1',
      '/device/boxList',
      '/login?redirect=%2Findex',
      '/error/404',
    ]) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe(INDEX);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
    // curl's */* also gets the page for extension-less paths.
    expect((await t.app.inject({ method: 'GET', url: '/task/groups' })).body).toBe(INDEX);
  });

  it('caches hashed assets for a year and 404s missing ones', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/x-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: '/favicon.ico' })).headers['cache-control']).toBe(
      'no-cache',
    );
    expect((await t.app.inject({ method: 'GET', url: '/assets/missing-1.js' })).statusCode).toBe(404);
  });

  it('sends the precompressed copy a browser accepts, brotli first, and the file to others', async () => {
    const url = '/assets/big-abc123.js';
    const asked = (encoding?: string) =>
      t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
    const br = await asked('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).equals(bundle)).toBe(true);
    expect(br.rawPayload.length).toBeLessThan(bundle.length / 10);
    const gz = await asked('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).equals(bundle)).toBe(true);
    const plain = await asked();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.equals(bundle)).toBe(true);
  });

  it('sets security headers on pages, API answers and errors', async () => {
    for (const url of ['/device/boxList', '/index/fbox.user/getuserinfo', '/index/nope', '/docs/json']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.headers['content-security-policy'], url).toBe(
        "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;connect-src 'self' ws: wss:;font-src 'self' data:;object-src 'none';base-uri 'self';frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('same-origin');
    }
  });

  it('tells browsers and proxies not to store API answers, but not pages or assets', async () => {
    const user = await createMaster(t.app);
    const token = await login(t.app, user);
    const answers = [
      await post(t.app, '/index/index/login', { username: user.username, password: user.password }),
      await get(t.app, '/index/fbox.user/getuserinfo', {}, { token }),
      await get(t.app, '/api/index/fbox.user/getuserinfo', {}, { token }),
      await get(t.app, '/index/fbox.user/getuserinfo'),
      await post(t.app, '/ff-plat-api/api/admin/area/config/list', {}, { token }),
      await get(t.app, '/index/fbox.nope/index'),
    ];
    for (const res of answers) expect(res.headers['cache-control'], res.body).toBe('no-store');
    expect((await t.app.inject({ method: 'GET', url: '/assets/x-abc123.js' })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    const page = await t.app.inject({ method: 'GET', url: '/index', headers: html });
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it("names a signed-in visitor's console files in the page's Link header, in their language", async () => {
    const page = (url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'GET', url, headers: { ...html, ...headers } });
    const signedIn = 'Admin-Token=abc';
    const english =
      '</assets/index-1.css>; rel=preload; as=style; crossorigin, </assets/index-1.js>; rel=modulepreload, ' +
      '</assets/texts-en-1.js>; rel=modulepreload';
    for (const url of ['/', '/index', '/device/machineList?status=online'])
      expect((await page(url, { cookie: signedIn })).headers.link, url).toBe(english);
    expect((await page('/index', { cookie: `${signedIn}; language=zh` })).headers.link).toContain(
      '</assets/texts-zh-1.js>; rel=modulepreload',
    );
    // No language cookie: the browser's, as the console itself decides.
    expect(
      (await page('/index', { cookie: signedIn, 'accept-language': 'zh-CN,zh;q=0.9' })).headers.link,
    ).toContain('texts-zh-1.js');
    expect(
      (await page('/index', { cookie: `${signedIn}; language=en`, 'accept-language': 'zh-CN' })).headers.link,
    ).toBe(english);
    // Pages outside the layout and a visitor without a session load none of the console.
    expect((await page('/login', { cookie: signedIn })).headers.link).toBeUndefined();
    expect((await page('/tankBoard?id=3', { cookie: signedIn })).headers.link).toBeUndefined();
    expect((await page('/login?redirect=%2Findex', { cookie: signedIn })).headers.link).toBeUndefined();
    expect((await page('/index')).headers.link).toBeUndefined();
  });

  it('keeps API paths out of the SPA fallback', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/index/fbox.nope/index', headers: html });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe(-3);
  });
});

describeDb('without a web build', () => {
  it('explains how to build the web instead of failing', async () => {
    const t = await buildTestApp({ config: { webDist: join(tmpdir(), 'fbox-missing-dist') } });
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/plain/);
    expect(res.body).toContain('web console has not been built');
    await t.close();
  });
});

describeDb('API reference', () => {
  it('serves the OpenAPI document generated from the contracts and a viewer', async () => {
    const t = await buildTestApp();
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json();
    expect(doc.openapi).toBe('3.0.3');
    expect(
      doc.paths['/index/index/login'].post.requestBody.content['application/json'].schema.required,
    ).toEqual(['username', 'password']);
    expect(Object.keys(doc.paths)).toContain('/index/fbox.area/index');
    // A POST call the spec lists under GET is documented on both, its GET input in the query.
    const poolList = doc.paths['/ff-plat-api/api/admin/area/pool/list'];
    expect(poolList.post.requestBody).toBeDefined();
    expect(poolList.get.requestBody).toBeUndefined();
    expect(poolList.get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['area_id', 'page', 'limit', 'keyword']),
    );
    const ui = await t.app.inject({ method: 'GET', url: '/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    await t.close();
  });
});
