import type { FastifyInstance } from 'fastify';
import { afterEach, expect, it } from 'vitest';
import { appsOnOneDatabase, describeDb } from '../../test/build-test-app.js';
import { createArea, createFbox, createMaster } from '../../test/factories.js';
import {
  notifications,
  setPush,
  startProviders,
  telemetrySender,
  temperature,
} from '../../test/notify-providers.js';

const s = 1000;

/**
 * Two server instances on one database (on PostgreSQL over separate pools) sending the outbox at
 * the same moments, with a provider failing now and then: every notification is delivered once.
 */
describeDb('notification delivery in two processes on one database', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('sends each notification once, whichever process claims it', async () => {
    const providers = await startProviders();
    const world = await appsOnOneDatabase(2, { notify: providers.notify({ maxAttempts: 5 }) });
    close = async () => {
      await world.close();
      await providers.close();
    };
    const { apps, clock } = world;
    const [a, b] = apps as [FastifyInstance, FastifyInstance];
    const master = await createMaster(a);
    const area = await createArea(a, master.id);
    // Five boxes, each with its own alert: five groups per channel.
    const boxes = [];
    for (let i = 0; i < 5; i++) boxes.push(await createFbox(a, area.id, { tanks: 1, name: `Box ${i}` }));
    await setPush(a, master.id, {
      email: ['ops@example.com', 'night@example.com'],
      telegram: ['42'],
      teams: [`${providers.teams.url}/hook`],
    });
    // Every third Telegram call fails with a 500 and is retried.
    providers.telegram.holder.reply = (_r, n) =>
      n % 3 === 0
        ? { status: 500, body: { ok: false, error_code: 500, description: 'Internal Server Error' } }
        : { status: 200, body: { ok: true, result: {} } };
    for (const [i, box] of boxes.entries()) {
      const send = telemetrySender(box, clock);
      const app = i % 2 === 0 ? a : b;
      await send(app, temperature(50));
      clock.advance(60 * s);
      await send(app, temperature(52));
    }
    expect(await notifications(a)).toHaveLength(20);
    for (let round = 0; round < 6; round++) {
      clock.advance(30 * s);
      await Promise.all([
        a.notifySender.sendDue(),
        b.notifySender.sendDue(),
        a.notifySender.sendDue(),
        b.notifySender.sendDue(),
      ]);
    }
    const rows = await notifications(a);
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    expect(providers.smtp.mails).toHaveLength(10);
    expect(new Set(providers.smtp.mails.map((m) => `${m.to[0]} ${m.subject}`)).size).toBe(10);
    expect(providers.teams.requests).toHaveLength(5);
    const okTelegram = providers.telegram.requests.filter((_r, i) => (i + 1) % 3 !== 0);
    expect(okTelegram).toHaveLength(5);
    expect(new Set(okTelegram.map((r) => JSON.parse(r.body).text)).size).toBe(5);
  });
});
