import fp from 'fastify-plugin';
import { AuthService } from './auth.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
  }
}

/** Decorates the app with the session and login service. Needs the db plugin and `clock`. */
export const authPlugin = fp<{ sessionTtlMinutes: number }>(
  async (app, { sessionTtlMinutes }) => {
    app.decorate('auth', new AuthService(app.db, app.clock, sessionTtlMinutes * 60_000));
  },
  { name: 'auth', dependencies: ['db'] },
);
