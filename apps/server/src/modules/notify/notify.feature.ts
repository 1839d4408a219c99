import type { PushChannel } from '@fbox/contracts';
import { defineFeature } from '../feature.js';
import { buildChannels } from './channels/index.js';
import { notifyMigration } from './notify.migration.js';
import { writeOutbox } from './notify.outbox.js';
import { NotifyRepository } from './notify.repository.js';
import { notifyHandlers } from './notify.routes.js';
import { NotifySender } from './notify.sender.js';
import { NotifyService } from './notify.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    notify: NotifyService;
    notifySender: NotifySender;
  }
}

/**
 * Alert push (issue 13 §5–6): every alert transition writes outbox rows in its own transaction; the
 * leased `notify-send` job (and a kick shortly after a transition, once the job loop runs) sends
 * them over e-mail, Telegram, Teams and SMS. See docs/alerts.md "Delivery".
 */
export const notifyFeature = defineFeature({
  name: 'notify',
  migrations: (dialect) => ({ '0016_notify': notifyMigration(dialect) }),
  register(app) {
    const settings = app.config.notify;
    const channels = buildChannels(settings);
    const configured = new Set(Object.keys(channels) as PushChannel[]);
    const repo = new NotifyRepository(app.db);
    const sender = new NotifySender({
      repo,
      channels,
      clock: app.clock,
      log: app.log,
      publicUrl: settings.publicUrl,
      groupMs: settings.groupMs,
      maxAttempts: settings.maxAttempts,
    });
    app.decorate('notifySender', sender);
    app.decorate('notify', new NotifyService(app.db, app.clock, app.areas, channels, settings.publicUrl));

    // Once the job loop runs, a transition that wrote rows kicks a send just after the grouping
    // delay instead of waiting for the job's next period (tests drive `sendDue` themselves).
    let looping = false;
    let kick: NodeJS.Timeout | undefined;
    app.jobs.onStart(() => {
      looping = true;
    });
    app.alarms.onTransition(async (trx, transition) => {
      const written = await writeOutbox(repo, trx, transition, configured, settings.groupMs);
      if (written === 0 || !looping || kick) return;
      kick = setTimeout(() => {
        kick = undefined;
        sender.sendDue().catch((error: unknown) => app.log.error({ err: error }, 'notification send failed'));
      }, settings.groupMs + 250);
      kick.unref();
    });
    app.jobs.add({ name: 'notify-send', periodMs: 2_000, run: () => sender.sendDue() });
    app.addHook('onClose', async () => {
      looping = false;
      clearTimeout(kick);
      await sender.settled();
      for (const channel of Object.values(channels)) channel.close?.();
    });
  },
  handlers: notifyHandlers,
});
