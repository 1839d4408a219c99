import fp from 'fastify-plugin';
import { AreaService } from './area/area.service.js';
import { MessageService } from './message/message.service.js';
import { UserService } from './user/user.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    users: UserService;
    areas: AreaService;
    messages: MessageService;
  }
}

/** Decorates the app with the domain services the HTTP adapters (and later MQTT and jobs) call. */
export const modulesPlugin = fp(
  async (app) => {
    app.decorate('users', new UserService(app.db, app.clock));
    app.decorate('areas', new AreaService(app.db, app.clock));
    app.decorate('messages', new MessageService(app.db));
  },
  { name: 'modules', dependencies: ['db'] },
);
