import {
  Code,
  type GroupMiner,
  type GroupMinerFilter,
  type GroupType,
  type MinerGroup,
  maxGroupMiners,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { isUniqueViolation } from '../../db/errors.js';
import { statusOf } from '../../devices/device-values.js';
import { ApiError, fieldConflict } from '../../lib/api-error.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound, requireManage } from '../device-access.js';
import { type MembersBody, MinerGroupRepository } from './group.repository.js';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'areas'>;

/** A unique-name violation is the user's "name taken"; anything else is the server's error. */
const nameTaken = (error: unknown): never => {
  if (isUniqueViolation(error)) throw fieldConflict('name', 'api.groupNameTaken');
  throw error;
};

/**
 * Miner groups (spec §3): named sets of miners of one mine, separate per task type. Tasks pick
 * groups of their type; a group used by a live task cannot be deleted.
 */
export class MinerGroupService {
  constructor(private readonly deps: Deps) {}

  private get repo() {
    return new MinerGroupRepository(this.deps.db);
  }

  private async findGroup(areaId: number, id: number) {
    return (await this.repo.find(areaId, id)) ?? notFound();
  }

  private async view(areaId: number, ids: number[]): Promise<MinerGroup[]> {
    if (ids.length === 0) return [];
    const rows = await this.repo.views(areaId, ids, this.deps.clock());
    return rows.map((r) => ({
      ...r,
      type: r.type as GroupType,
      miner_count: Number(r.miner_count ?? 0),
      task_count: Number(r.task_count ?? 0),
    }));
  }

  async list(
    user: AreaCaller,
    q: { area_id: number; type: GroupType; keyword?: string | undefined; page: number; limit: number },
  ) {
    await this.deps.areas.requireAccess(user, q.area_id);
    const { ids, total } = await this.repo.page(q);
    return { items: await this.view(q.area_id, ids), total, page: q.page, limit: q.limit };
  }

  /** One group of the mine with its counts (the group editor's header). */
  async detail(user: AreaCaller, body: { area_id: number; id: number }): Promise<MinerGroup> {
    await this.deps.areas.requireAccess(user, body.area_id);
    return (await this.view(body.area_id, [body.id]))[0] ?? notFound();
  }

  async add(user: AreaCaller, body: { area_id: number; name: string; type: GroupType }) {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const id = await this.repo
      .insert({ area_id: body.area_id, type: body.type, name: body.name }, this.deps.clock())
      .catch(nameTaken);
    return (await this.view(body.area_id, [id]))[0]!;
  }

  async edit(user: AreaCaller, body: { area_id: number; id: number; name: string }) {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    await this.findGroup(body.area_id, body.id);
    await this.repo.rename(body.id, body.name, this.deps.clock()).catch(nameTaken);
    return (await this.view(body.area_id, [body.id]))[0]!;
  }

  async delete(user: AreaCaller, body: { area_id: number; id: number }) {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    await this.findGroup(body.area_id, body.id);
    const usedBy = await this.repo.deleteUnlessUsed(body.id, this.deps.clock());
    if (usedBy !== null) throw new ApiError(Code.CONFLICT, 'api.groupInUse', { task: usedBy });
    return null;
  }

  /** The group editor's miner list: the mine's miners by filter, each saying whether it is in. */
  async miners(
    user: AreaCaller,
    q: GroupMinerFilter & { area_id: number; group_id: number; page: number; limit: number },
  ) {
    await this.deps.areas.requireAccess(user, q.area_id);
    await this.findGroup(q.area_id, q.group_id);
    const { rows, total } = await this.repo.miners(q);
    const items: GroupMiner[] = rows.map((r) => ({
      id: r.id,
      worker: r.worker,
      sn: r.sn,
      ip: r.ip,
      model: r.model,
      fbox_id: r.fbox_id,
      fbox_name: r.fbox_name ?? '',
      tank_id: r.tank_id,
      tank_name: r.tank_name ?? null,
      status: statusOf(r.online),
      hashrate_realtime: r.hashrate_realtime,
      in_group: Boolean(Number(r.in_group)),
    }));
    return { items, total, page: q.page, limit: q.limit };
  }

  /**
   * Checks a membership change before it runs: the group is the mine's, and listed miners must all
   * be miners of the mine: an id of another mine answers "not found" and nothing changes (ids
   * cannot be probed, and a typo does not half-apply).
   */
  private async checkMembers(user: AreaCaller, body: MembersBody): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    await this.findGroup(body.area_id, body.group_id);
    if (body.all_matching) return;
    const unique = [...new Set(body.miner_ids)];
    if ((await this.repo.countMiners(body.area_id, unique)) !== unique.length)
      throw new ApiError(Code.NOT_FOUND, 'api.notFound');
  }

  /** Bulk add: the listed miners of the mine, or every miner the filter matches. */
  async addMiners(user: AreaCaller, body: MembersBody) {
    await this.checkMembers(user, body);
    const counts = await this.repo.addMembers(body, maxGroupMiners, this.deps.clock());
    if (!counts) throw new ApiError(Code.CONFLICT, 'api.groupTooLarge', { max: maxGroupMiners });
    return { changed: counts.after - counts.before, miner_count: counts.after };
  }

  /** Bulk remove: the listed miners, or every member the filter matches. */
  async removeMiners(user: AreaCaller, body: MembersBody) {
    await this.checkMembers(user, body);
    const counts = await this.repo.removeMembers(body, this.deps.clock());
    return { changed: counts.before - counts.after, miner_count: counts.after };
  }
}
