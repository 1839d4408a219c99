import fp from 'fastify-plugin';
import { AuthService } from './auth.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    auth: AuthService;
  }
}

/** The channel on which processes sharing a PostgreSQL database say sessions may have changed. */
const SESSIONS_CHANNEL = 'fbox_sessions_changed';

/**
 * Decorates the app with the session and login service. Needs the db plugin and `clock`.
 *
 * Resolved sessions are reused briefly (see SessionCache). On SQLite one process holds the
 * database, so clearing its own cache is enough. On PostgreSQL other processes may change
 * sessions: each one LISTENs, a change is NOTIFYed to all, and a process keeps nothing while its
 * listener is not connected.
 */
export const authPlugin = fp<{ sessionTtlMinutes: number; sessionMaxHours: number }>(
  async (app, { sessionTtlMinutes, sessionMaxHours }) => {
    const { dbListen: listen, dbNotify: notify } = app;
    const auth = new AuthService(
      app.db,
      app.clock,
      sessionTtlMinutes * 60_000,
      { cacheSessions: listen === undefined, sessionMaxMs: sessionMaxHours * 3_600_000 },
      app.secrets,
    );
    if (listen && notify) {
      listen(SESSIONS_CHANNEL, {
        onNotify: () => auth.sessions.clear(),
        onListening: (listening) => {
          if (auth.sessions.enabled && !listening)
            app.log.warn('lost the session-change listener: every session is looked up until it is back');
          else if (listening) app.log.info('listening for session changes of other processes');
          auth.sessions.enabled = listening;
        },
      });
      auth.broadcast = async () => {
        // Not telling the others leaves them a stale session for SESSION_CACHE_MS at most.
        await notify(SESSIONS_CHANNEL, '').catch((err: unknown) =>
          app.log.error({ err }, 'could not notify other processes of a session change'),
        );
      };
    }
    app.decorate('auth', auth);
  },
  { name: 'auth', dependencies: ['db', 'secrets'] },
);
