import { defineFeature } from '../feature.js';
import { messageHandlers } from './message.routes.js';
import { MessageService } from './message.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    messages: MessageService;
  }
}

/** The message badge. */
export const messageFeature = defineFeature({
  name: 'message',
  register(app) {
    app.decorate('messages', new MessageService(app.db));
  },
  handlers: messageHandlers,
});
