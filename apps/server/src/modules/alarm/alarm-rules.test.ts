import { defaultAlertRules } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createArea, createMaster } from '../../test/factories.js';
import { alarmMigration } from './alarm.migration.js';
import { alarmMetricsMigration } from './alarm-metrics.migration.js';
import { alarmSilenceMigration } from './alarm-silence.migration.js';

describeDb('default alert rules', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await buildTestApp();
  });
  afterEach(() => t.close());

  const ruleCount = async () =>
    Number(
      (
        await t.app.db
          .selectFrom('alert_rules')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('come with a mine in the transaction creating it: a failed creation leaves neither', async () => {
    const master = await createMaster(t.app);
    await createArea(t.app, master.id, 'North');
    expect(await ruleCount()).toBe(defaultAlertRules.length);
    t.app.areas.onCreate(async () => {
      throw new Error('a feature failed');
    });
    await expect(createArea(t.app, master.id, 'South')).rejects.toThrow('a feature failed');
    const names = await t.app.db.selectFrom('areas').select('area_name').execute();
    expect(names).toEqual([{ area_name: 'North' }]);
    expect(await ruleCount()).toBe(defaultAlertRules.length);
  });

  it('are given by the migration to the mines that existed before it', async () => {
    const master = await createMaster(t.app);
    const areas = [await createArea(t.app, master.id), await createArea(t.app, master.id)];
    // The alarm's migrations after 0015 are undone first (their tables refer to its rules).
    const chain = [alarmMigration(t.app.dbDialect), alarmSilenceMigration, alarmMetricsMigration];
    for (const migration of [...chain].reverse()) await migration.down!(t.app.db);
    for (const migration of chain) await migration.up(t.app.db);
    for (const area of areas) {
      const rules = await t.app.alertRules.list(area.id);
      expect(rules.map(({ id: _id, area_id: _area, ...rule }) => rule)).toEqual(defaultAlertRules);
    }
  });
});
