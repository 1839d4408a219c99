import {
  type AgentRegister,
  type AgentRegistered,
  agentRegisterLimits,
  agentRegisterTopics,
  agentUsername,
  Code,
  endpoints,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { CreatedFbox } from '../../devices/device.service.js';
import { maskParams, targetOf } from '../oplog/oplog.params.js';
import { AgentFboxRepository } from './agent-fbox.repository.js';
import { FboxRepository } from './fbox.repository.js';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'secrets' | 'devices' | 'fboxes' | 'miners' | 'oplog'>;

const refused = (error: string): AgentRegistered => ({ ok: false, error });

/**
 * Site agents registering as FBOX gateways with their mine's Agent Key (docs/mqtt.md, "Registering
 * with the Agent Key"). One box per mine and agent client id: an agent that registers again gets the
 * same box and its current MQTT account; once the box is deleted (or moved to another mine) it gets a
 * new one. Boxes are made by the FBOX service (the mine's defaults, the form's validation) and their
 * creation is recorded in the operation log under the agent's client key. The caller (the MQTT layer)
 * has checked the Agent Key and that the client id is the agent's own.
 */
export class AgentRegistrationService {
  /** Registrations in progress per agent: a redelivered request waits for the first one. */
  private readonly inFlight = new Map<string, Promise<AgentRegistered>>();

  constructor(private readonly deps: Deps) {}

  /** Whether the mine exists (registrations for others are not this server's to answer). */
  async knowsMine(areaId: number): Promise<boolean> {
    return (await new AgentFboxRepository(this.deps.db).mine(areaId)) !== undefined;
  }

  register(areaId: number, clientId: string, request: AgentRegister, ip: string | null) {
    const key = `${areaId}/${clientId}`;
    const previous = this.inFlight.get(key) ?? Promise.resolve(undefined);
    const next = previous
      .catch(() => undefined)
      .then(() => this.registerNow(areaId, clientId, request, ip))
      .finally(() => {
        if (this.inFlight.get(key) === next) this.inFlight.delete(key);
      });
    this.inFlight.set(key, next);
    return next;
  }

  private async registerNow(
    areaId: number,
    clientId: string,
    request: AgentRegister,
    ip: string | null,
  ): Promise<AgentRegistered> {
    const repo = new AgentFboxRepository(this.deps.db);
    const mine = await repo.mine(areaId);
    if (!mine) return refused('unknown mine');
    const existing = await this.existing(repo, areaId, clientId);
    if (existing) return existing;
    if ((await repo.count(areaId)) >= agentRegisterLimits.fboxesPerMine)
      return refused(
        `this mine has ${agentRegisterLimits.fboxesPerMine} FBOXes registered by agents already`,
      );
    const created = await this.deps.fboxes.createForAgent(areaId, request);
    if (!(await repo.link(areaId, clientId, created.id, this.deps.clock()))) {
      // Another server process registered the same agent meanwhile: keep its box, drop ours.
      await this.dropBox(areaId, created);
      return (await this.existing(repo, areaId, clientId)) ?? refused('registration conflict; try again');
    }
    await this.deps.oplog.record({
      at: this.deps.clock(),
      user_id: null,
      username: agentUsername(areaId),
      master_id: mine.owner_id,
      ip: ip?.slice(0, 64) ?? null,
      area_id: areaId,
      area_name: mine.area_name,
      action: 'fboxCreate',
      path: agentRegisterTopics.register(areaId, clientId),
      target: `#${created.id} ${targetOf(request)}`.trim(),
      params: JSON.stringify(maskParams({ ...request, client_id: clientId })),
      code: Code.OK,
      // As the FBOX form's creation is recorded (its action, message), but by the agent.
      message_key: endpoints.fboxCreate.success ?? 'api.ok',
      message_params: '{}',
    });
    return {
      ok: true,
      device_id: created.device_id,
      username: created.mqtt_username,
      password: created.mqtt_password,
    };
  }

  /** The agent's box with its current account, if it is still in the mine (else the link is dropped). */
  private async existing(
    repo: AgentFboxRepository,
    areaId: number,
    clientId: string,
  ): Promise<AgentRegistered | undefined> {
    const box = await repo.linked(areaId, clientId);
    if (!box) return undefined;
    if (box.area_id !== areaId) {
      await repo.unlink(areaId, clientId);
      return undefined;
    }
    // A revoked gateway key stays revoked: registering again must not hand out its new password.
    if (await repo.gatewayRevoked(areaId, box.mqtt_username))
      return refused('the key of this FBOX was revoked: ask an administrator of the mine');
    return {
      ok: true,
      device_id: box.device_id,
      username: box.mqtt_username,
      password: this.deps.secrets.open(box.mqtt_password),
    };
  }

  private async dropBox(areaId: number, box: CreatedFbox): Promise<void> {
    await new FboxRepository(this.deps.db).delete(areaId, box.id);
    this.deps.miners.invalidate(areaId);
    this.deps.devices.revoke(box.device_id);
    await this.deps.devices.removed({ fboxId: box.id });
  }
}
