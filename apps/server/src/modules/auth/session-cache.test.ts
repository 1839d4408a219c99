import { randomBytes } from 'node:crypto';
import { Code } from '@fbox/contracts';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { openPostgres } from '../../db/database.js';
import { buildTestApp, pgUrl, testDbKind } from '../../test/build-test-app.js';
import { createArea, createMaster, createSubAccount, get, login, post } from '../../test/factories.js';
import { SessionCache } from './session-cache.js';

const session = (expires_at: number) => ({ expires_at, user: 'amy' });

describe('SessionCache', () => {
  it('keeps a session for its time to live, and never past the session expiry', () => {
    const cache = new SessionCache<ReturnType<typeof session>>(2_000, true);
    cache.set('a', session(10_000), 1_000, cache.generation);
    cache.set('b', session(1_500), 1_000, cache.generation);
    expect(cache.get('a', 2_999)?.user).toBe('amy');
    expect(cache.get('b', 1_499)?.user).toBe('amy');
    expect(cache.get('b', 1_500)).toBeUndefined();
    expect(cache.get('a', 3_000)).toBeUndefined();
    expect(cache.get('a', 999)).toBeUndefined();
  });

  it('drops a lookup that was under way while it was cleared', () => {
    const cache = new SessionCache<ReturnType<typeof session>>(2_000, true);
    const before = cache.generation;
    cache.clear();
    cache.set('a', session(10_000), 0, before);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.set('a', session(10_000), 0, cache.generation);
    expect(cache.get('a', 1)).toBeDefined();
  });

  it('keeps nothing while off, and forgets everything when switched', () => {
    const cache = new SessionCache<ReturnType<typeof session>>(2_000, false);
    cache.set('a', session(10_000), 0, cache.generation);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.enabled = true;
    cache.set('a', session(10_000), 0, cache.generation);
    expect(cache.get('a', 1)).toBeDefined();
    cache.enabled = false;
    expect(cache.get('a', 1)).toBeUndefined();
  });
});

/** Two server processes' apps on one PostgreSQL schema, each with its own pool and listener. */
describe.skipIf(testDbKind !== 'postgres')('sessions across processes sharing PostgreSQL', () => {
  it('refuses a sub-account disabled through the other process, without waiting for the cache to expire', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const open = () => openPostgres(pgUrl, { options: `-c search_path=${schema}`, max: 5 });
    const a = await buildTestApp({ database: open() });
    const b = await buildTestApp({ database: open() });
    try {
      // Both listen before anything is cached (a process keeps nothing until it hears the others).
      await vi.waitFor(() => expect(a.app.auth.sessions.enabled && b.app.auth.sessions.enabled).toBe(true));
      const master = await createMaster(a.app);
      const masterToken = await login(a.app, master);
      const area = await createArea(a.app, master.id);
      const sub = await createSubAccount(a.app, master, [area.id]);
      const token = await login(a.app, sub);
      const listOnB = () => get(b.app, '/index/fbox.area/index', {}, { token }).then((r) => r.json());
      expect(await listOnB()).toMatchObject({ code: 1, data: [{ id: area.id }] });
      expect(await listOnB()).toMatchObject({ code: 1 });
      const disabled = await post(
        a.app,
        '/index/fbox.user/edit',
        { id: sub.id, status: 'disabled' },
        { token: masterToken },
      );
      expect(disabled.json().code).toBe(1);
      // B's clock stands still: only A's notification can end the session B has cached.
      await vi.waitFor(async () => expect((await listOnB()).code).toBe(Code.NOT_LOGGED_IN), {
        timeout: 2_000,
      });
    } finally {
      await b.close();
      await a.close();
      await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  });
});
