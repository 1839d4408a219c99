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
    liveSession?: LiveSession;
  }
}

/**
 * Who a socket is for: a signed-in user (by session token), or a wall TV showing one board (by the
 * board's kiosk token, no login: it hears only the devices' change notices, never alerts, commands
 * or anyone's inbox).
 */
type LiveSession =
  | { kind: 'user'; user: SessionUser; token: string; areaId: number }
  | { kind: 'kiosk'; token: string; areaId: number };

/** What a kiosk socket hears: the notices that make its board's figures stale. */
const kioskHears = new Set<LiveMessage['type']>(['hello', 'telemetry', 'status']);

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
 * (see `LiveMessageSchema`) so the web refetches what changed instead of polling. A wall TV's board
 * connects with `/ws?kiosk=<token>` instead: its board's mine, device notices only. Refusals happen
 * before the upgrade with a plain HTTP status: 403 foreign Origin, 401 no or dead session (or kiosk
 * link), 404 an area the caller cannot see, 400 a bad area id.
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

    /** Whether a socket's credentials still hold (logout, expiry, a revoked kiosk link end it). */
    const stillValid = async (session: LiveSession): Promise<boolean> => {
      if (session.kind === 'user')
        return (await app.auth.authenticate(session.token).catch(() => null)) !== null;
      const board = await app.boards.kioskBoard(session.token).catch(() => null);
      return board?.areaId === session.areaId;
    };

    const admitKiosk = async (request: FastifyRequest, reply: FastifyReply, kiosk: string) => {
      const board = await app.boards.kioskBoard(kiosk).catch((error: unknown) => {
        if (error instanceof ApiError) return null;
        throw error;
      });
      if (!board) return refuse(reply, 401, Code.NOT_LOGGED_IN);
      request.liveSession = { kind: 'kiosk', token: kiosk, areaId: board.areaId };
    };

    const admit = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!sameOrigin(request)) return refuse(reply, 403, Code.FORBIDDEN);
      const kiosk = (request.query as Record<string, unknown>).kiosk;
      if (typeof kiosk === 'string' && kiosk !== '') return admitKiosk(request, reply, kiosk);
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
      request.liveSession = { kind: 'user', user, token, areaId: areaId.data };
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
      const send = (text: string) => {
        if (socket.readyState === socket.OPEN) socket.send(text);
      };
      const leave = hub.join(
        session.areaId,
        session.kind === 'user'
          ? { userId: session.user.id, send }
          : {
              send: (text) => {
                if (kioskHears.has((JSON.parse(text) as LiveMessage).type)) send(text);
              },
            },
      );
      const heartbeat = setInterval(async () => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
        // Logout, password change, expiry or a revoked kiosk link ends the live feed too.
        if (!(await stillValid(session))) socket.close(4001, 'session ended');
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
