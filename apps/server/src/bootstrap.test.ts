import { afterEach, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { describeDb, openTestDatabase, TestClock } from './test/build-test-app.js';
import { get, login } from './test/factories.js';

describeDb('first start', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(() => close?.());

  it('creates the master account with a printed password and the demo mine, once', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => lines.push(line) };
    const database = await openTestDatabase();
    const app = await buildApp({
      database,
      logger: { level: 'info', stream },
      now: new TestClock().now,
      config: { adminUser: 'root', adminPassword: undefined, demo: true, webDist: '/nonexistent' },
    });
    close = () => app.close();
    const created = lines
      .map((l) => JSON.parse(l).msg as string)
      .find((m) => m?.startsWith('Master account'));
    const password = /created with password: (\S+)$/.exec(created ?? '')?.[1];
    expect(password).toBeDefined();
    const token = await login(app, { id: 1, username: 'root', password: password! });
    const areas = (await get(app, '/index/fbox.area/index', {}, { token })).json().data;
    expect(areas).toEqual([{ id: expect.any(Number), area_name: 'Demo Mine', electricity_hz: 50 }]);
    expect(await app.users.count()).toBe(1);
  });

  it('uses ADMIN_PASSWORD without printing it, and no demo mine with DEMO=0', async () => {
    const lines: string[] = [];
    const app = await buildApp({
      database: await openTestDatabase(),
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
      config: { adminUser: 'admin', adminPassword: 'configured-pass', demo: false, webDist: '/nonexistent' },
    });
    close = () => app.close();
    expect(lines.join('\n')).not.toContain('configured-pass');
    const token = await login(app, { id: 1, username: 'admin', password: 'configured-pass' });
    expect((await get(app, '/index/fbox.area/index', {}, { token })).json().data).toEqual([]);
  });
});
