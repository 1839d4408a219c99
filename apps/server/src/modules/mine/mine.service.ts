import {
  agentUsername,
  type ClientList,
  type ClientRecord,
  Code,
  type Mine,
  type MineDeletePreview,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { newAgentKey } from '../../lib/agent-key.js';
import { ApiError } from '../../lib/api-error.js';
import { AreaRepository } from '../area/area.repository.js';
import type { AreaCaller, SessionUser } from '../auth/auth.service.js';
import { ClientRecordRepository } from './client-record.repository.js';
import { MineRepository } from './mine.repository.js';

export type MineDeps = Pick<
  FastifyInstance,
  'db' | 'clock' | 'areas' | 'devices' | 'mqtt' | 'mqttBroker' | 'secrets'
>;

type RecordRow = Awaited<ReturnType<ClientRecordRepository['listByArea']>>[number];

const toRecord = (row: RecordRow): ClientRecord => ({
  id: row.id,
  kind: row.kind === 'agent' ? 'agent' : 'gateway',
  client_key: row.client_key,
  client_id: row.client_id,
  ip: row.ip,
  computer_name: row.computer_name,
  version: row.version,
  fbox_id: row.fbox_id,
  fbox_name: row.fbox_name ?? null,
  online: row.online === 1,
  first_seen_at: Number(row.first_seen_at),
  last_seen_at: Number(row.last_seen_at),
  revoked_at: row.revoked_at === null ? null : Number(row.revoked_at),
});

/**
 * Manage Mines: the mine list with management fields and Agent Keys (masters: their mines;
 * administrators: the mines they manage; the `manage` permission keeps operators out), the Agent Key
 * regeneration, what a delete takes with it, and the client key records with revocation. Every id
 * outside the caller's scope answers "not found".
 */
export class MineService {
  constructor(private readonly deps: MineDeps) {}

  async list(user: Pick<SessionUser, 'id' | 'isMaster' | 'masterId'>): Promise<Mine[]> {
    const repo = new MineRepository(this.deps.db);
    const rows = user.isMaster
      ? await repo.listOwned(user.id)
      : await repo.listAssigned(user.id, user.masterId);
    return rows.map((row) => ({
      id: row.id,
      area_name: row.area_name,
      electricity_hz: row.electricity_hz,
      electricity_price: Number(row.electricity_price),
      comment: row.comment,
      contact: row.contact,
      agent_key: this.deps.secrets.open(row.agent_key),
      created_at: Number(row.created_at),
    }));
  }

  /** What deleting one of the master's mines takes with it. */
  async deletePreview(ownerId: number, id: number): Promise<MineDeletePreview> {
    const area = await new AreaRepository(this.deps.db).findOwned(ownerId, id);
    if (!area) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    return {
      id: area.id,
      area_name: area.area_name,
      ...(await new MineRepository(this.deps.db).contents(id)),
    };
  }

  /**
   * Deletes one of the master's mines with everything in it, then closes the MQTT sessions of its
   * gateways and agents (embedded broker): their accounts are gone.
   */
  async delete(ownerId: number, id: number): Promise<void> {
    const deviceIds = await new MineRepository(this.deps.db).deviceIds(id);
    await this.deps.areas.delete(ownerId, id);
    for (const deviceId of deviceIds) this.deps.devices.revoke(deviceId);
    this.deps.mqttBroker?.disconnectAgents(id);
  }

  /**
   * Issues a new Agent Key. Agents logged in with the old one are disconnected (embedded broker) and
   * must be given the new key; agents revoked before may come back with it, since only someone an
   * administrator gave the new key can log in.
   */
  async regenerateAgentKey(user: AreaCaller, id: number): Promise<{ agent_key: string }> {
    await this.deps.areas.requireAccess(user, id);
    const agentKey = newAgentKey();
    await new AreaRepository(this.deps.db).update(
      id,
      { agent_key: this.deps.secrets.seal(agentKey) },
      this.deps.clock(),
    );
    await new ClientRecordRepository(this.deps.db).readmit(id, agentUsername(id));
    this.deps.mqttBroker?.disconnectAgents(id);
    return { agent_key: agentKey };
  }

  async clients(user: AreaCaller, areaId: number): Promise<ClientList> {
    await this.deps.areas.requireAccess(user, areaId);
    const rows = await new ClientRecordRepository(this.deps.db).listByArea(areaId);
    return { broker: this.brokerKind(), items: rows.map(toRecord) };
  }

  /**
   * Revokes a client: disconnects it now and refuses it from then on (embedded broker only; an
   * external broker authenticates clients itself, so the server could neither cut nor refuse them).
   * - An agent record refuses that client id with the mine's Agent Key. Agents share the key: to shut
   *   out a machine that knows it, regenerate the Agent Key.
   * - A gateway record revokes the FBOX's key: its MQTT password is replaced by one nobody is shown,
   *   so every session of that gateway ends and it is refused until an administrator issues new
   *   credentials on the FBOX page (its first connection with them lifts the revocation).
   */
  async revokeClient(user: AreaCaller, areaId: number, id: number): Promise<ClientRecord> {
    await this.deps.areas.requireAccess(user, areaId);
    const records = new ClientRecordRepository(this.deps.db);
    const record = await records.findInArea(areaId, id);
    if (!record) throw new ApiError(Code.NOT_FOUND, 'api.notFound');
    const broker = this.deps.mqttBroker;
    if (!broker) throw new ApiError(Code.CONFLICT, 'api.revokeNeedsEmbeddedBroker');
    const now = this.deps.clock();
    if (record.kind === 'agent') {
      await records.revoke(areaId, { id }, now);
      broker.disconnectAgents(areaId, record.client_id);
    } else {
      const fbox = await new MineRepository(this.deps.db).findGateway(areaId, record.client_key);
      // The box's password changed since (or the box is gone): the key is already dead.
      if (fbox) await this.deps.devices.regenerateMqttPassword(fbox.id);
      await records.revoke(areaId, { client_key: record.client_key }, now);
    }
    const updated = await records.findInArea(areaId, id);
    return toRecord(updated!);
  }

  private brokerKind(): ClientList['broker'] {
    if (this.deps.mqttBroker) return 'embedded';
    return this.deps.mqtt ? 'external' : 'off';
  }
}
