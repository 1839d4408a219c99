import { Code, endpoints } from '@fbox/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../../test/build-test-app.js';
import { createArea, createMaster, get, login, post } from '../../test/factories.js';

describeDb('resolved sessions are forgotten only by calls that change access', () => {
  let t: TestApp;
  let token: string;
  let area: { id: number; area_name: string };
  beforeEach(async () => {
    t = await buildTestApp();
    const master = await createMaster(t.app);
    token = await login(t.app, master);
    area = await createArea(t.app, master.id, 'North');
  });
  afterEach(() => t.close());

  const generation = () => t.app.auth.sessions.generation;

  it('keeps them across a change of devices or tasks', async () => {
    const before = generation();
    const res = await post(
      t.app,
      endpoints.minerGroupAdd.path,
      { area_id: area.id, name: 'Row A', type: 'miner_reboot' },
      { token },
    );
    expect(res.json().code).toBe(Code.OK);
    expect(generation()).toBe(before);
  });

  it('forgets them when a mine changes, and the next call sees the change', async () => {
    const before = generation();
    const res = await post(t.app, endpoints.areaEdit.path, { id: area.id, area_name: 'South' }, { token });
    expect(res.json().code).toBe(Code.OK);
    expect(generation()).toBeGreaterThan(before);
    const list = await get(t.app, endpoints.areaList.path, {}, { token });
    expect(JSON.stringify(list.json().data)).toContain('South');
  });
});
