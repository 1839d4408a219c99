import { afterEach, beforeEach, expect, it } from 'vitest';
import { buildTestApp, describeDb, type TestApp } from '../test/build-test-app.js';
import { createMaster, createSubAccount, type TestUser } from '../test/factories.js';
import { isUniqueViolation, uniqueIndexOf } from './errors.js';

describeDb('email and phone unique per master account (database)', () => {
  let t: TestApp;
  let master: TestUser;
  let other: TestUser;
  beforeEach(async () => {
    t = await buildTestApp();
    master = await createMaster(t.app);
    other = await createMaster(t.app);
  });
  afterEach(() => t.close());

  const setContact = (id: number, values: { email?: string; mobile?: string }) =>
    t.app.db.updateTable('users').set(values).where('id', '=', id).execute();
  const refusal = (work: Promise<unknown>) =>
    work.then(
      () => null,
      (error: unknown) => (isUniqueViolation(error) ? uniqueIndexOf(error) : error),
    );

  it('refuses a second account of one master with the same email (any case) or phone', async () => {
    const sub = await createSubAccount(t.app, master);
    await setContact(master.id, { email: 'Boss@Example.com', mobile: '1 5550000' });
    expect(await refusal(setContact(sub.id, { email: 'boss@example.com' }))).toBe('users_tenant_email');
    expect(await refusal(setContact(sub.id, { mobile: '1 5550000' }))).toBe('users_tenant_mobile');
  });

  it("lets another master's accounts, and accounts without one, share the values", async () => {
    await setContact(master.id, { email: 'boss@example.com', mobile: '1 5550000' });
    expect(
      await refusal(setContact(other.id, { email: 'boss@example.com', mobile: '1 5550000' })),
    ).toBeNull();
    const a = await createSubAccount(t.app, master);
    const b = await createSubAccount(t.app, master);
    expect(await refusal(setContact(a.id, { email: '', mobile: '' }))).toBeNull();
    expect(await refusal(setContact(b.id, { email: '', mobile: '' }))).toBeNull();
  });
});
