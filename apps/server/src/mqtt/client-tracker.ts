import {
  AgentClientIdSchema,
  type ClientTopic,
  HelloMessageSchema,
  parseAgentUsername,
  parseClientTopic,
  parseTopic,
  StatusPayloadSchema,
} from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { DeviceService } from '../devices/device.service.js';
import { passwordMatches } from '../devices/fbox-credentials.js';
import type { Clock } from '../lib/clock.js';
import type { SecretBox } from '../lib/secret-box.js';
import type {
  ClientKey,
  ClientRecordRepository,
  ClientSighting,
} from '../modules/mine/client-record.repository.js';

/** Who an MQTT client logged in as: an FBOX's gateway, or a site agent with its mine's Agent Key. */
export type ClientIdentity =
  | { kind: 'gateway'; clientKey: string; areaId: number; deviceId: string; fboxId: number }
  | { kind: 'agent'; clientKey: string; areaId: number };

/** What the embedded broker tells about its clients. */
export interface ClientObserver {
  connected(identity: ClientIdentity, clientId: string, ip: string): void;
  disconnected(identity: ClientIdentity, clientId: string): void;
  /** A hello (or agent status) the client published under its own topic. */
  announced(identity: ClientIdentity, clientId: string, topic: ClientTopic, payload: Buffer): void;
}

const MAX_CLIENT_ID = 128;

const keyOf = (identity: ClientIdentity, clientId: string): ClientKey => ({
  area_id: identity.areaId,
  client_key: identity.clientKey,
  client_id: clientId.slice(0, MAX_CLIENT_ID),
});

const base = (identity: ClientIdentity, clientId: string): ClientSighting => ({
  ...keyOf(identity, clientId),
  kind: identity.kind,
  fbox_id: identity.kind === 'gateway' ? identity.fboxId : null,
});

/** `::ffff:10.0.0.1` → `10.0.0.1`. */
export const plainIp = (address: string | undefined): string => (address ?? '').replace(/^::ffff:/, '');

/**
 * Client key records (spec §3): authenticates gateways and site agents for the embedded broker and
 * records every client that connected for a mine — client id, IP, computer name, online/offline,
 * first and last seen. With an external broker it records what it can see from published messages
 * (hello, status): no IP and no client id. Writes are queued in order (a connect is written before
 * the disconnect that follows it); `drain` waits for them.
 */
export class ClientTracker implements ClientObserver {
  private chain: Promise<void> = Promise.resolve();
  /** Live sessions per record: a client id that reconnects is taken over, not doubled. */
  private readonly sessions = new Map<string, number>();

  constructor(
    private readonly records: ClientRecordRepository,
    private readonly clock: Clock,
    private readonly devices: DeviceService,
    private readonly log: FastifyBaseLogger,
    /** Agent Keys are stored sealed (encrypted at rest). */
    private readonly secrets: SecretBox,
  ) {}

  /**
   * Checks a login. `agent:<areaId>` with the mine's Agent Key is a site agent (refused when its
   * client id was revoked); anything else is an FBOX gateway's account. Resolves to null when refused.
   */
  async authenticate(username: string, password: string, clientId: string): Promise<ClientIdentity | null> {
    const areaId = parseAgentUsername(username);
    if (areaId !== null) {
      if (!AgentClientIdSchema.safeParse(clientId).success) return null;
      const agentKey = await this.records.agentKeyOf(areaId);
      if (!agentKey || !passwordMatches(this.secrets.open(agentKey), password)) return null;
      const identity: ClientIdentity = { kind: 'agent', clientKey: username, areaId };
      if (await this.records.isRevoked(keyOf(identity, clientId))) return null;
      return identity;
    }
    const deviceId = await this.devices.authenticate(username, password);
    if (!deviceId) return null;
    const fbox = await this.devices.findByDeviceId(deviceId);
    if (!fbox) return null;
    return { kind: 'gateway', clientKey: username, areaId: fbox.area_id, deviceId, fboxId: fbox.id };
  }

  connected(identity: ClientIdentity, clientId: string, ip: string): void {
    const key = JSON.stringify(keyOf(identity, clientId));
    this.sessions.set(key, (this.sessions.get(key) ?? 0) + 1);
    this.enqueue(async () => {
      const now = this.clock();
      await this.records.upsert({ ...base(identity, clientId), ip, online: true }, now);
      // A gateway gets in again only with credentials issued after its revocation: that lifts it.
      if (identity.kind === 'gateway') await this.records.readmit(identity.areaId, identity.clientKey);
    });
  }

  disconnected(identity: ClientIdentity, clientId: string): void {
    const key = JSON.stringify(keyOf(identity, clientId));
    const left = (this.sessions.get(key) ?? 1) - 1;
    if (left > 0) {
      this.sessions.set(key, left);
      return;
    }
    this.sessions.delete(key);
    this.enqueue(() => this.records.markOffline(keyOf(identity, clientId), this.clock()));
  }

  announced(identity: ClientIdentity, clientId: string, topic: ClientTopic, payload: Buffer): void {
    // On the embedded broker the connection itself says online/offline; only hello adds facts.
    if (topic.what !== 'hello') return;
    const hello = this.parseHello(payload, clientId);
    if (!hello) return;
    this.enqueue(() => this.records.upsert({ ...base(identity, clientId), ...hello }, this.clock()));
  }

  /**
   * External broker: a message the server received on a gateway's or agent's topic. The broker does
   * not say who sent it (no client id, no IP), so records are kept per client key with the client id
   * from the topic (agents) or '' (gateways).
   */
  observe(topic: string, payload: Buffer): void {
    const client = parseClientTopic(topic);
    const status = client ? null : parseTopic(topic);
    if (!client && status?.kind !== 'status') return;
    this.enqueue(async () => {
      if (client?.kind === 'agent') {
        if ((await this.records.agentKeyOf(client.areaId)) === undefined) return;
        const areaId = client.areaId;
        const identity: ClientIdentity = { kind: 'agent', clientKey: `agent:${areaId}`, areaId };
        await this.sighting(identity, client.clientId, client.what, payload);
        return;
      }
      const deviceId = client?.deviceId ?? status!.deviceId;
      const fbox = await this.records.gatewayOf(deviceId);
      if (!fbox) return;
      const identity: ClientIdentity = {
        kind: 'gateway',
        clientKey: fbox.mqtt_username,
        areaId: fbox.area_id,
        deviceId,
        fboxId: fbox.id,
      };
      await this.sighting(identity, '', client ? 'hello' : 'status', payload);
    });
  }

  private async sighting(
    identity: ClientIdentity,
    clientId: string,
    what: 'hello' | 'status',
    payload: Buffer,
  ): Promise<void> {
    if (what === 'hello') {
      const hello = this.parseHello(payload, clientId);
      if (hello)
        await this.records.upsert({ ...base(identity, clientId), ...hello, online: true }, this.clock());
      return;
    }
    const status = StatusPayloadSchema.safeParse(
      payload
        .toString('utf8')
        .trim()
        .replace(/^"(.*)"$/, '$1'),
    );
    if (!status.success) return;
    await this.records.upsert(
      { ...base(identity, clientId), online: status.data === 'online' },
      this.clock(),
    );
  }

  private parseHello(payload: Buffer, clientId: string): { computer_name: string; version?: string } | null {
    // An empty retained payload clears the topic; it says nothing.
    if (payload.length === 0) return null;
    try {
      const hello = HelloMessageSchema.safeParse(JSON.parse(payload.toString('utf8')));
      if (hello.success) return hello.data;
    } catch {
      // logged below
    }
    this.log.warn({ clientId }, 'MQTT hello ignored: not a {computer_name, version} JSON object');
    return null;
  }

  /** Embedded broker start: nothing is connected yet, whatever a previous run left online. */
  reset(): Promise<void> {
    this.sessions.clear();
    return this.records.markAllOffline();
  }

  /** Waits for the writes queued so far (shutdown, tests). */
  drain(): Promise<void> {
    return this.chain;
  }

  private enqueue(write: () => Promise<void>): void {
    this.chain = this.chain
      .then(write)
      .catch((error: unknown) => this.log.error({ err: error }, 'client key record not written'));
  }
}
