import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:net';
import { agentClientIdPrefix, parseAgentRegisterTopic, parseClientTopic, parseTopic } from '@fbox/contracts';
import { Aedes, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../lib/clock.js';
import { listenOnFreeFallback } from '../lib/ports.js';
import { type ClientIdentity, type ClientObserver, plainIp } from './client-tracker.js';
import { LoginThrottle } from './login-throttle.js';
import { guardSocket, type PacketGuard } from './packet-guard.js';
import { type AgentRegisterHandler, HandlerSlot, type MqttRefusal, type MqttTransport } from './transport.js';

export interface Broker {
  port: number;
  /** Closes every session of a device (its credentials changed or its box is gone); returns how many. */
  disconnect(deviceId: string): number;
  /** Closes the sessions of a mine's site agents (all, or one client id); returns how many. */
  disconnectAgents(areaId: number, clientId?: string): number;
  close(): Promise<void>;
}

/** Checks a login (gateway or site agent); resolves to who the client is, or null to refuse it. */
export type Authenticator = (
  username: string,
  password: string,
  clientId: string,
) => Promise<ClientIdentity | null>;

type TrackedClient = Client & { fboxIdentity?: ClientIdentity };

/** A connection with the guard that bounds its packets. */
type GuardedConn = { packetGuard?: PacketGuard; remoteAddress?: string };

const addressOf = (client: Client): string =>
  plainIp((client.conn as GuardedConn | undefined)?.remoteAddress);

/**
 * Whether a client id is the identity's own: a gateway's is its device id, an agent's starts with
 * `agent-<areaId>-`. Anything else could take over (and kick) another tenant's session.
 */
export const clientIdIsOwn = (identity: ClientIdentity, clientId: string): boolean =>
  identity.kind === 'gateway'
    ? clientId === identity.deviceId
    : clientId.startsWith(agentClientIdPrefix(identity.areaId));

/** Seconds a connection may stay without a CONNECT before it is closed. */
const connectTimeoutMs = 10_000;

/** Who an authenticated client was admitted as (kept on the aedes client object). */
const identityOf = (client: Client | null): ClientIdentity | undefined =>
  (client as TrackedClient | null)?.fboxIdentity;

/** The device id of a gateway client. */
const deviceIdOf = (client: Client | null): string | undefined => {
  const identity = identityOf(client);
  return identity?.kind === 'gateway' ? identity.deviceId : undefined;
};

/** An agent's own registration topic (`register` to publish, `registered` to subscribe), else null. */
const ownAgentTopic = (client: Client, topic: string): 'register' | 'registered' | null => {
  const identity = identityOf(client);
  const parsed = parseAgentRegisterTopic(topic);
  if (identity?.kind !== 'agent' || !parsed) return null;
  return parsed.areaId === identity.areaId && parsed.clientId === client.id ? parsed.what : null;
};

/** Whether a client may publish on a topic: its own gateway topics, or its own agent topics. */
const mayPublish = (client: Client, topic: string): boolean => {
  const identity = identityOf(client);
  if (!identity) return false;
  const announce = parseClientTopic(topic);
  if (identity.kind === 'agent') {
    if (ownAgentTopic(client, topic) === 'register') return true;
    return (
      announce?.kind === 'agent' && announce.areaId === identity.areaId && announce.clientId === client.id
    );
  }
  if (announce) return announce.kind === 'gateway' && announce.deviceId === identity.deviceId;
  const parsed = parseTopic(topic);
  return parsed !== null && parsed.kind !== 'cmd' && parsed.deviceId === identity.deviceId;
};

/** CONNACK refusals: 2 identifier rejected, 4 bad user name or password, 5 not authorized. */
const notAuthorized = (code: 2 | 4 | 5) =>
  Object.assign(new Error('Not authorized'), { returnCode: code as 2 | 4 | 5 });

/**
 * The embedded MQTT broker (aedes). Each gateway logs in with its FBOX's account and is confined to
 * `fbox/<its deviceId>/`: it may publish telemetry, status, hello, cmd/ack and logs there and subscribe to its cmd
 * only. A site agent may publish its hello, status and registration request under
 * `agent/<areaId>/<its clientId>/` and subscribe to its own `registered` answers only. The server itself does not connect as a client: it reads publishes off the broker and
 * publishes commands straight into it.
 */
export const startBroker = async (
  options: {
    port: number;
    explicit: boolean;
    host: string;
    /** Largest packet an authenticated client may send; larger ones close the connection unread. */
    maxPacketBytes: number;
    clock: Clock;
    authenticate: Authenticator;
    /** Told about connections and hellos (client key records). */
    observer?: ClientObserver;
  },
  log: FastifyBaseLogger,
): Promise<Broker & MqttTransport> => {
  const events = new EventEmitter<{ refused: [MqttRefusal] }>();
  const handler = new HandlerSlot();
  const agentRegister = new HandlerSlot<Parameters<AgentRegisterHandler>>();
  const refuse = (refusal: MqttRefusal) => {
    // Ingest counts and logs refusals; log here only when nobody listens.
    if (!events.emit('refused', refusal)) log.warn(refusal, 'MQTT client refused');
  };

  const throttle = new LoginThrottle(options.clock);
  const aedes = await Aedes.createBroker({
    connectTimeout: connectTimeoutMs,
    // aedes allows 23 characters by default (MQTT 3.1's bound); agent ids may have 64.
    maxClientsIdLength: 64,
    preConnect: (client, _packet, callback) => {
      const ip = addressOf(client);
      if (throttle.allows(ip)) return callback(null, true);
      refuse({ reason: 'rate_limited', clientId: client.id, ip });
      callback(null, false);
    },
    authenticate: (client, username, password, done) => {
      options.authenticate(username ?? '', password?.toString('utf8') ?? '', client.id).then(
        (identity) => {
          if (!identity) {
            throttle.failed(addressOf(client));
            refuse({ reason: 'bad_credentials', clientId: client.id, username });
            return done(notAuthorized(4), false);
          }
          if (!clientIdIsOwn(identity, client.id)) {
            throttle.failed(addressOf(client));
            refuse({ reason: 'foreign_client_id', clientId: client.id, username });
            return done(notAuthorized(2), false);
          }
          (client as TrackedClient).fboxIdentity = identity;
          (client.conn as GuardedConn).packetGuard?.raise(options.maxPacketBytes);
          done(null, true);
        },
        (error: unknown) => {
          log.error({ err: error }, 'MQTT authentication failed');
          done(notAuthorized(5), false);
        },
      );
    },
    authorizePublish: (client, packet, callback) => {
      // client is null for the server's own publishes (commands).
      if (!client) return callback(null);
      if (!mayPublish(client, packet.topic)) {
        refuse({ reason: 'foreign_topic', clientId: client.id, topic: packet.topic });
        return callback(new Error('Topic not allowed'));
      }
      if (parseClientTopic(packet.topic)) return callback(null);
      const register = parseAgentRegisterTopic(packet.topic);
      if (register) {
        // Answered on the agent's `registered` topic before the PUBACK; the answer carries failures.
        const ip = addressOf(client) || null;
        agentRegister.handle(register.areaId, register.clientId, packet.payload as Buffer, ip).then(
          () => callback(null),
          (error: unknown) => {
            log.warn({ err: error, clientId: client.id }, 'agent registration not handled');
            callback(null);
          },
        );
        return;
      }
      // aedes writes the PUBACK once this calls back: a gateway's telemetry, status and acks are
      // acknowledged only when ingest has stored them. Until then no more of this client's bytes are
      // read (the guard's read gate), which is also the backpressure. A message that could not be
      // stored fails here: the client is disconnected without the ack and sends it again when it
      // reconnects.
      const gate = (client.conn as GuardedConn).packetGuard;
      gate?.hold();
      handler
        .handle(packet.topic, packet.payload as Buffer)
        .finally(() => gate?.release())
        .then(
          () => callback(null),
          (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
        );
    },
    authorizeSubscribe: (client, subscription, callback) => {
      const deviceId = deviceIdOf(client);
      if (deviceId && subscription.topic === `fbox/${deviceId}/cmd`) return callback(null, subscription);
      // An agent hears only the answers to its own registration.
      if (ownAgentTopic(client, subscription.topic) === 'registered') return callback(null, subscription);
      log.warn({ clientId: client.id, topic: subscription.topic }, 'MQTT subscription refused');
      // A null subscription is a SUBACK failure (0x80) without dropping the connection.
      callback(null, null);
    },
  });
  // Sessions by gateway (`fbox:<deviceId>`) and by mine for site agents (`agent:<areaId>`), so a
  // changed password, a deleted box, a new Agent Key or a revocation can cut them off at once.
  const sessions = new Map<string, Set<Client>>();
  const sessionKey = (identity: ClientIdentity) =>
    identity.kind === 'gateway' ? `fbox:${identity.deviceId}` : `agent:${identity.areaId}`;
  aedes.on('client', (client) => {
    const identity = identityOf(client);
    if (!identity) return;
    const key = sessionKey(identity);
    const set = sessions.get(key) ?? new Set<Client>();
    set.add(client);
    sessions.set(key, set);
    const address = (client.conn as { remoteAddress?: string } | undefined)?.remoteAddress;
    options.observer?.connected(identity, client.id, plainIp(address));
  });
  aedes.on('clientDisconnect', (client) => {
    const identity = identityOf(client);
    if (!identity) return;
    const key = sessionKey(identity);
    const set = sessions.get(key);
    // A session closed by `disconnect` was already taken out of the map; it still ends here.
    if (set?.delete(client) && set.size === 0) sessions.delete(key);
    options.observer?.disconnected(identity, client.id);
  });
  // Gateway messages were handled before their ack (authorizePublish); hellos are seen here.
  aedes.on('publish', (packet, client) => {
    if (!client || packet.topic.startsWith('$SYS')) return;
    const announce = parseClientTopic(packet.topic);
    const identity = identityOf(client);
    if (announce && identity)
      options.observer?.announced(identity, client.id, announce, packet.payload as Buffer);
  });

  // Every socket reads through a guard that refuses an oversized packet from its header, before
  // its body is buffered: small until the client has logged in, `maxPacketBytes` after.
  const server: Server = createServer((socket) => {
    const { conn, guard } = guardSocket(socket, (error) =>
      refuse({
        reason: 'oversized_packet',
        clientId: '',
        ip: plainIp(socket.remoteAddress),
        bytes: error.announced,
      }),
    );
    (conn as GuardedConn).packetGuard = guard;
    aedes.handle(conn);
  });
  const port = await listenOnFreeFallback(server, { ...options, name: 'MQTT' }, log);
  let closing: Promise<void> | undefined;
  return {
    kind: 'embedded',
    ready: async () => {},
    port,
    events,
    onMessage: (h) => handler.set(h),
    onAgentRegister: (h) => agentRegister.set(h),
    publish: (topic, payload, { qos, retain = false }) =>
      new Promise<void>((resolve, reject) =>
        aedes.publish(
          { cmd: 'publish', topic, payload: Buffer.from(payload), qos, retain, dup: false },
          (error) => (error ? reject(error) : resolve()),
        ),
      ),
    disconnect: (deviceId) => {
      const set = sessions.get(`fbox:${deviceId}`);
      if (!set) return 0;
      sessions.delete(`fbox:${deviceId}`);
      for (const client of set) client.close();
      log.info({ deviceId, sessions: set.size }, 'MQTT sessions of a device closed');
      return set.size;
    },
    disconnectAgents: (areaId, clientId) => {
      const set = sessions.get(`agent:${areaId}`);
      if (!set) return 0;
      const closed = [...set].filter((client) => clientId === undefined || client.id === clientId);
      for (const client of closed) {
        set.delete(client);
        client.close();
      }
      if (set.size === 0) sessions.delete(`agent:${areaId}`);
      log.info({ areaId, clientId, sessions: closed.length }, 'MQTT sessions of site agents closed');
      return closed.length;
    },
    close: () => {
      closing ??= (async () => {
        // aedes first: it disconnects the clients, so the server's close does not wait on them.
        await new Promise<void>((resolve) => aedes.close(() => resolve()));
        await new Promise<void>((resolve) => server.close(() => resolve()));
        handler.close();
        agentRegister.close();
      })();
      return closing;
    },
  };
};
