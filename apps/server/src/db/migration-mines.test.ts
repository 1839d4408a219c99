import { sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createMaster } from '../test/factories.js';
import { minesMigration } from './migration-mines.js';

describeDb('migration 0007 (mines)', () => {
  let t: TestApp;
  afterEach(() => t.close());

  it('gives existing mines their own Agent Key and the price 0.05, and is reversible', async () => {
    t = await buildTestApp();
    const owner = await createMaster(t.app);
    const migration = minesMigration(t.app.dbDialect);
    const db = t.app.db as never;
    await migration.down!(db);
    for (const name of ['Old A', 'Old B']) {
      await sql`insert into areas (owner_id, area_name, electricity_hz, created_at, updated_at)
        values (${owner.id}, ${name}, 50, 1, 1)`.execute(t.app.db);
    }
    await migration.up(db);
    const rows = await t.app.db
      .selectFrom('areas')
      .select(['agent_key', 'electricity_price', 'comment', 'contact'])
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        agent_key: expect.stringMatching(/^[0-9a-f]{32}$/),
        electricity_price: 0.05,
        comment: '',
        contact: '',
      },
      {
        agent_key: expect.stringMatching(/^[0-9a-f]{32}$/),
        electricity_price: 0.05,
        comment: '',
        contact: '',
      },
    ]);
    expect(rows[0]!.agent_key).not.toBe(rows[1]!.agent_key);
    expect(await t.app.db.selectFrom('mqtt_clients').selectAll().execute()).toEqual([]);
  });
});
