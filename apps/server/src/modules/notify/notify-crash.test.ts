import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildTestApp, describeDb } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../../test/factories.js';
import { waitFor } from '../../test/mqtt-client.js';
import { setPush, startProviders, startSmtp } from '../../test/notify-providers.js';
import {
  processDatabase,
  type ServerProcess,
  seedDatabase,
  startServerProcess,
} from '../../test/server-process.js';
import { groupKey } from './notify.outbox.js';
import { NotifyRepository } from './notify.repository.js';

/**
 * Crash between the outbox write and the send (issue 13 §6): the real server process claims a
 * committed notification and is killed with SIGKILL while its SMTP server holds the message
 * unanswered. Started again (here: an instance on the same database, past the dead claim's lease),
 * the notification is delivered exactly once.
 */
describeDb('notification delivery survives kill -9 mid-send', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fbox-notify-crash-'));
  let server: ServerProcess | undefined;
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await server?.kill('SIGKILL');
    for (const close of closers.reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the notification once after the restart', async () => {
    const database = await processDatabase(dir);
    closers.push(database.drop);
    // The database as a transition left it: an open alert and its outbox row, due now.
    const { alertId } = await seedDatabase(database.open(), dir, async (app) => {
      const master = await createMaster(app);
      const area = await createArea(app, master.id, 'Crash Mine');
      const fbox = await createFbox(app, area.id, { name: 'Box K' });
      await setPush(app, master.id, { email: ['ops@example.com'] });
      const rule = await app.db
        .selectFrom('alert_rules')
        .selectAll()
        .where('area_id', '=', area.id)
        .where('metric', '=', 'fbox_temp_high')
        .executeTakeFirstOrThrow();
      const now = Date.now();
      const alert = await app.db
        .insertInto('alerts')
        .values({
          area_id: area.id,
          rule_id: rule.id,
          metric: 'fbox_temp_high',
          level: 2,
          device_kind: 'fbox',
          device_id: fbox.id,
          fbox_id: fbox.id,
          device_name: 'Box K',
          value: 52,
          peak_value: 52,
          detail: '',
          started_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const stored = await app.db
        .selectFrom('alerts')
        .selectAll()
        .where('id', '=', alert.id)
        .executeTakeFirstOrThrow();
      await app.db.transaction().execute((trx) =>
        new NotifyRepository(app.db).insert(trx, [
          {
            alert_id: alert.id,
            area_id: area.id,
            user_id: master.id,
            kind: 'fired',
            channel: 'email',
            address: 'ops@example.com',
            group_key: groupKey(stored, 'fired', master.id, 'email', 'ops@example.com'),
            status: 'pending',
            attempts: 0,
            next_attempt_at: now,
            leased_until: 0,
            created_at: now,
          },
        ]),
      );
      return { alertId: alert.id };
    });

    // The first process's SMTP server takes the message and never answers: it is mid-send.
    const stuck = await startSmtp();
    stuck.state.reply = () => 'hang';
    closers.push(stuck.close);
    server = startServerProcess(
      { ...database.env, SMTP_URL: stuck.url, MAIL_FROM: 'alerts@fbox.example' },
      dir,
    );
    await waitFor(async () => stuck.state.received === 1, 60_000);
    const check = database.open();
    closers.push(() => check.close());
    const claimed = await check.db.selectFrom('notifications').selectAll().executeTakeFirstOrThrow();
    expect(claimed).toMatchObject({ status: 'pending', attempts: 0 });
    expect(claimed.leased_by).not.toBeNull();
    await server.kill('SIGKILL');
    expect(stuck.mails).toEqual([]);

    // Started again after the dead process's lease: sent once, marked sent.
    const providers = await startProviders();
    closers.push(providers.close);
    const restarted = await buildTestApp({
      database: database.open(),
      config: { notify: providers.notify() },
    });
    closers.push(restarted.close);
    restarted.clock.ms = Number(claimed.leased_until) - 1;
    expect(await restarted.app.notifySender.sendDue()).toBe(0);
    restarted.clock.ms = Number(claimed.leased_until);
    expect(await restarted.app.notifySender.sendDue()).toBe(1);
    expect(await restarted.app.notifySender.sendDue()).toBe(0);
    expect(providers.smtp.mails.map((m) => [m.to[0], m.subject])).toEqual([
      ['ops@example.com', '[Major] Container temperature high: Box K (Crash Mine)'],
    ]);
    expect(
      await restarted.app.db.selectFrom('notifications').select(['alert_id', 'status', 'attempts']).execute(),
    ).toEqual([{ alert_id: alertId, status: 'sent', attempts: 1 }]);
  }, 180_000);
});
