import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { Database } from '../db/database.js';
import { totpCode } from '../lib/totp.js';
import { buildTestApp, describeDb, openTestDatabase, type TestApp } from '../test/build-test-app.js';
import { createArea, createFbox, createMaster, get, login, post, type TestUser } from '../test/factories.js';

const sealed = /^enc:v1:[0-9a-f]{8}:/;
const POOL_KEY = 'pool-key-5e1d2c3b4a';
const POOL_SECRET = 'pool-secret-0f9e8d7c6b5a';
const COLLECTOR_PASSWORD = 'collector-pass-77';

describeDb('secrets at rest', () => {
  const opened: { db: Database; apps: TestApp[] }[] = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const { db, apps } of opened.splice(0)) {
      for (const a of apps) await a.close();
      await db.close();
    }
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** One database several servers start on in turn, each with the key it is given. */
  const sharedDatabase = async () => {
    const db = await openTestDatabase();
    const entry = { db, apps: [] as TestApp[] };
    opened.push(entry);
    const start = async (
      secretKey: Buffer | undefined,
      previousSecretKeys: Buffer[] = [],
      dataDir?: string,
    ) => {
      for (const a of entry.apps.splice(0)) await a.close();
      const t = await buildTestApp({
        database: { ...db, close: async () => {} },
        config: { secretKey, previousSecretKeys, ...(dataDir && { dataDir }) },
      });
      entry.apps.push(t);
      return t;
    };
    return { db, start };
  };

  /** An FBOX with a collector password, TOTP on, and a pool subaccount with API credentials. */
  const storeSecrets = async (t: TestApp) => {
    const master = await createMaster(t.app);
    const areaId = (await createArea(t.app, master.id)).id;
    const fbox = await createFbox(t.app, areaId, {
      collectors: [{ no: 1, account: 'c1', password: COLLECTOR_PASSWORD }, { no: 2 }],
    });
    const token = await login(t.app, master);
    const setup = (await post(t.app, '/index/fbox.user/totp_setup', {}, { token })).json();
    const totpSecret: string = setup.data.secret;
    const enable = await post(
      t.app,
      '/index/fbox.user/totp_enable',
      { code: totpCode(totpSecret, t.clock.now()) },
      { token },
    );
    expect(enable.json().code).toBe(1);
    const pool = await post(
      t.app,
      '/ff-plat-api/api/admin/area/pool/save',
      {
        area_id: areaId,
        pool: 'F2Pool',
        subaccount: 'a',
        coin: 'BTC',
        api_key: POOL_KEY,
        api_secret: POOL_SECRET,
      },
      { token },
    );
    expect(pool.json().code).toBe(1);
    return { master, areaId, fbox, totpSecret };
  };

  const rawSecrets = async (t: TestApp) => ({
    fboxes: await t.app.db.selectFrom('fboxes').select('mqtt_password').execute(),
    collectors: await t.app.db
      .selectFrom('fbox_collectors')
      .select('password')
      .where('password', '<>', '')
      .execute(),
    users: await t.app.db.selectFrom('users').select(['totp_secret', 'totp_pending_secret']).execute(),
    pools: await t.app.db.selectFrom('pool_subaccounts').select(['api_key', 'api_secret']).execute(),
    areas: await t.app.db.selectFrom('areas').select('agent_key').execute(),
  });

  /** MQTT, TOTP login and the pool credentials all still work with what was stored. */
  const expectUsable = async (t: TestApp, s: Awaited<ReturnType<typeof storeSecrets>>, master: TestUser) => {
    expect(await t.app.devices.authenticate(s.fbox.mqtt_username, s.fbox.mqtt_password)).toBe(
      s.fbox.device_id,
    );
    expect(await t.app.devices.authenticate(s.fbox.mqtt_username, `${s.fbox.mqtt_password}x`)).toBeNull();
    t.clock.advance(60_000);
    await login(t.app, master, totpCode(s.totpSecret, t.clock.now()));
    expect(await t.app.pools.credentials(s.areaId)).toEqual([
      expect.objectContaining({ api_key: POOL_KEY, api_secret: POOL_SECRET }),
    ]);
  };

  it('stores every secret encrypted, and MQTT auth, TOTP login and pool credentials still work', async () => {
    const { start } = await sharedDatabase();
    const t = await start(randomBytes(32));
    const s = await storeSecrets(t);
    const raw = await rawSecrets(t);
    const text = JSON.stringify(raw);
    for (const plain of [s.fbox.mqtt_password, COLLECTOR_PASSWORD, s.totpSecret, POOL_KEY, POOL_SECRET]) {
      expect(text).not.toContain(plain);
    }
    expect(raw.fboxes[0]!.mqtt_password).toMatch(sealed);
    expect(raw.areas).toEqual([{ agent_key: expect.stringMatching(sealed) }]);
    expect(raw.collectors).toEqual([{ password: expect.stringMatching(sealed) }]);
    expect(raw.users[0]).toEqual({ totp_secret: expect.stringMatching(sealed), totp_pending_secret: null });
    expect(raw.pools[0]).toEqual({
      api_key: expect.stringMatching(sealed),
      api_secret: expect.stringMatching(sealed),
    });
    await expectUsable(t, s, s.master);
    // Shown to whoever may see it (the master on the detail page) in plain form.
    const token = await login(t.app, s.master, totpCode(s.totpSecret, t.clock.now() + 30_000));
    const detail = await get(
      t.app,
      '/index/fbox.boxlist/detail',
      { area_id: String(s.areaId), id: String(s.fbox.id) },
      { token },
    );
    expect(detail.json().data.mqtt_password).toBe(s.fbox.mqtt_password);
  });

  it('encrypts values stored in plain form by an earlier version at start-up, once', async () => {
    const key = randomBytes(32);
    const { start } = await sharedDatabase();
    let t = await start(key);
    const s = await storeSecrets(t);
    // What a database from before encryption holds.
    await t.app.db.updateTable('fboxes').set({ mqtt_password: s.fbox.mqtt_password }).execute();
    await t.app.db.updateTable('users').set({ totp_secret: s.totpSecret }).execute();
    await t.app.db
      .updateTable('pool_subaccounts')
      .set({ api_key: POOL_KEY, api_secret: POOL_SECRET })
      .execute();
    await t.app.db
      .updateTable('fbox_collectors')
      .set({ password: COLLECTOR_PASSWORD })
      .where('no', '=', 1)
      .execute();
    t = await start(key);
    const once = await rawSecrets(t);
    expect(JSON.stringify(once)).not.toContain(POOL_SECRET);
    expect(once.fboxes[0]!.mqtt_password).toMatch(sealed);
    expect(once.users[0]!.totp_secret).toMatch(sealed);
    expect(once.collectors).toEqual([{ password: expect.stringMatching(sealed) }]);
    await expectUsable(t, s, s.master);
    // Idempotent: a further start rewrites nothing.
    t = await start(key);
    expect(await rawSecrets(t)).toEqual(once);
  });

  it('refuses to start with another key, naming the key id; a rotation re-encrypts under the new key', async () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const { start } = await sharedDatabase();
    let t = await start(oldKey);
    const s = await storeSecrets(t);
    const before = await rawSecrets(t);
    const oldId = before.fboxes[0]!.mqtt_password.split(':')[2];

    await expect(start(newKey)).rejects.toThrow(
      new RegExp(
        `encrypted with key id ${oldId}, which is neither SECRET_KEY \\([0-9a-f]{8}\\) nor in SECRET_KEY_PREVIOUS`,
      ),
    );

    t = await start(newKey, [oldKey]);
    const rotated = await rawSecrets(t);
    const newId = t.app.secrets.keyId;
    expect(newId).not.toBe(oldId);
    for (const value of [
      rotated.fboxes[0]!.mqtt_password,
      rotated.collectors[0]!.password,
      rotated.users[0]!.totp_secret!,
      rotated.pools[0]!.api_key!,
      rotated.pools[0]!.api_secret!,
      rotated.areas[0]!.agent_key,
    ]) {
      expect(value.startsWith(`enc:v1:${newId}:`)).toBe(true);
    }
    // The old key is no longer needed.
    t = await start(newKey);
    await expectUsable(t, s, s.master);
  });

  it('generates DATA_DIR/secret.key when SECRET_KEY is unset and reads its secrets at the next start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fbox-data-'));
    dirs.push(dataDir);
    const { start } = await sharedDatabase();
    let t = await start(undefined, [], dataDir);
    const s = await storeSecrets(t);
    const keyId = t.app.secrets.keyId;
    t = await start(undefined, [], dataDir);
    expect(t.app.secrets.keyId).toBe(keyId);
    await expectUsable(t, s, s.master);
  });
});
