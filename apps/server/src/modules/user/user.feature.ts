import { defineFeature } from '../feature.js';
import { userHandlers } from './user.routes.js';
import { UserService } from './user.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    users: UserService;
  }
}

/** The signed-in account: profile, push channels and account switches. */
export const userFeature = defineFeature({
  name: 'user',
  register(app) {
    app.decorate('users', new UserService(app.db, app.clock));
  },
  handlers: userHandlers,
});
