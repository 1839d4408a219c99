import fastifyWebsocket from '@fastify/websocket';
import { Code, IdSchema, type LiveMessage, limits } from '@fbox/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { WebSocket } from 'ws';
import { ApiError } from '../lib/api-error.js';
import type { SessionUser } from '../modules/auth/auth.service.js';
import { LiveHub } from './live-hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    liveHub: LiveHub;
  }
  interface FastifyRequest {
    liveSession?: { user: SessionUser; token: string; areaId: number };
  }
}

export interface RealtimeOptions {
  /** Ping period; a client that missed the previous pong is dropped. Sessions are re-checked too. */
  heartbeatMs?: number;
}

/** Browsers cannot set headers on a WebSocket: the token comes from the query or the cookie. */
const tokenOf = (request: FastifyRequest): string | undefined => {
  const query = request.query as Record<string, unknown>;
  if (typeof query.logintoken === 'string' && query.logintoken) return query.logintoken;
  return request.cookies?.[limits.tokenCookie];
};

/**
 * A cross-site page could open a socket with the victim's cookie; browsers always send `Origin`,
 * so it must name this host. Clients without one (scripts) authenticate with their token only.
 */
const sameOrigin = (request: FastifyRequest): boolean => {
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  try {
    return new URL(origin).host === request.host;
  } catch {
    return false;
  }
};

/**
 * The live WebSocket at `/ws?area_id=N` (also `/api/ws`): pushes compact change notices of one mine
 * (see `LiveMessageSchema`) so the web refetches what changed instead of polling. Refusals happen
 * before the upgrade with a plain HTTP status: 403 foreign Origin, 401 no or dead session, 404 an
 * area the caller cannot see, 400 a bad area id.
 */
export const realtimePlugin = fp<RealtimeOptions>(
  async (app, options) => {
    const heartbeatMs = options.heartbeatMs ?? 30_000;
    const hub = new LiveHub(app.live);
    const sockets = new Set<WebSocket>();
    app.decorate('liveHub', hub);

    await app.register(fastifyWebsocket, {
      options: { maxPayload: 4096, clientTracking: false },
      // Our own preClose closes sockets with a reason; the plugin's default would do it too.
      preClose: (done) => done(),
    });

    const refuse = (reply: FastifyReply, status: number, code: number) =>
      reply.code(status).type('application/json; charset=utf-8').send({ code, msg: '', data: null });

    const admit = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!sameOrigin(request)) return refuse(reply, 403, Code.FORBIDDEN);
      const token = tokenOf(request);
      const user = await app.auth.authenticate(token);
      if (!user || !token) return refuse(reply, 401, Code.NOT_LOGGED_IN);
      const areaId = IdSchema.safeParse((request.query as Record<string, unknown>).area_id);
      if (!areaId.success) return refuse(reply, 400, Code.VALIDATION);
      try {
        await app.areas.requireAccess(user, areaId.data);
      } catch (error) {
        if (error instanceof ApiError) return refuse(reply, 404, Code.NOT_FOUND);
        throw error;
      }
      request.liveSession = { user, token, areaId: areaId.data };
    };

    const connect = (socket: WebSocket, request: FastifyRequest) => {
      const session = request.liveSession;
      if (!session) {
        socket.close(1008, 'unauthorized');
        return;
      }
      sockets.add(socket);
      let alive = true;
      socket.on('pong', () => {
        alive = true;
      });
      // The browser sends nothing we act on; anything it sends is ignored.
      socket.on('message', () => {});
      const leave = hub.join(session.areaId, {
        userId: session.user.id,
        send: (text) => {
          if (socket.readyState === socket.OPEN) socket.send(text);
        },
      });
      const heartbeat = setInterval(async () => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
        // Logout, password change or expiry ends the live feed too.
        if (!(await app.auth.authenticate(session.token).catch(() => null)))
          socket.close(4001, 'session ended');
      }, heartbeatMs);
      heartbeat.unref();
      socket.on('close', () => {
        clearInterval(heartbeat);
        leave();
        sockets.delete(socket);
      });
      const hello: LiveMessage = { type: 'hello', areaId: session.areaId };
      socket.send(JSON.stringify(hello));
    };

    for (const url of ['/ws', '/api/ws']) {
      app.route({
        method: 'GET',
        url,
        preValidation: admit,
        handler: (_request, reply) => refuse(reply, 426, Code.VALIDATION),
        wsHandler: connect,
      });
    }

    app.addHook('preClose', async () => {
      for (const socket of sockets) socket.close(1001, 'server shutting down');
      hub.close();
    });
  },
  { name: 'realtime', dependencies: ['auth', 'modules', 'devices'] },
);
