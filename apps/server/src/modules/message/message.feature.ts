import { defineFeature } from '../feature.js';
import { inboxMigration } from './message.migration.js';
import { messageHandlers } from './message.routes.js';
import { InboxService } from './message.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The users' inboxes: `add` writes (and announces) a message for other features. */
    inbox: InboxService;
  }
}

/**
 * The inbox (issue 13 item 4): alert transitions and system messages per user, read/unread, the
 * Messages screen and the top bar's badge. Registered after the alarm center, whose transitions it
 * listens to.
 */
export const messageFeature = defineFeature({
  name: 'message',
  migrations: () => ({ '0017_inbox': inboxMigration }),
  register(app) {
    const inbox = new InboxService({
      db: app.db,
      clock: app.clock,
      live: app.live,
      areas: app.areas,
      log: app.log,
    });
    app.decorate('inbox', inbox);
    app.alarms.onTransition((trx, transition) => inbox.onAlertTransition(trx, transition));
    app.commands.onSettled((settled) => inbox.onCommandSettled(settled));
  },
  handlers: messageHandlers,
});
