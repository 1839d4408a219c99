import { randomBytes } from 'node:crypto';
import {
  Code,
  type CommandStatus,
  commandStatuses,
  type OverclockPolicy,
  type UserInfo,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { IssueCommand } from '../../devices/command.service.js';
import { ApiError } from '../../lib/api-error.js';
import type { SessionUser } from '../auth/auth.service.js';
import { AccountSwitchRepository } from './account-switches.repository.js';
import { normalizePool } from './pool-guard.js';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'commands'>;

/** Miners issued per round (one `issueMany` each), ordered by FBOX so each round reaches few gateways. */
const overclockChunk = 1000;

/**
 * What the account switches of the master account do (spec §3, §4): Auto Overclock sends the
 * overclock policy to every miner of the master's mines; Lock Pool refuses pool changes and flags
 * miners reporting another pool than the configured one (see pool-guard.ts).
 */
export class AccountSwitchService {
  constructor(private readonly deps: Deps) {}

  private get repo() {
    return new AccountSwitchRepository(this.deps.db);
  }

  /** Acts on the switches a `setuserinfo` call changed (the caller is a master account). */
  async onChanged(user: SessionUser, before: UserInfo, after: UserInfo): Promise<void> {
    if (
      before.auto_frequency !== after.auto_frequency ||
      before.auto_frequency_config.min !== after.auto_frequency_config.min ||
      before.auto_frequency_config.max !== after.auto_frequency_config.max
    ) {
      await this.sendOverclockPolicy(user.masterId, user.id, {
        status: after.auto_frequency === 1 ? 'on' : 'off',
        min: after.auto_frequency_config.min,
        max: after.auto_frequency_config.max,
      });
    }
    if (before.pool_config.status === 0 && after.pool_config.status === 1) {
      await this.snapshotPools(user.masterId);
    }
  }

  /**
   * One `miner.overclock` command per miner of every mine of the master, under one batch id, and the
   * policy recorded so the console can say how many miners it went to. Returns the batch.
   */
  async sendOverclockPolicy(
    masterId: number,
    userId: number,
    policy: { status: 'on' | 'off'; min: number; max: number },
  ): Promise<{ batch_id: string; miners: number }> {
    const batchId = randomBytes(12).toString('hex');
    let count = 0;
    for (let afterId = 0; ; ) {
      const miners = await this.repo.minersOfMaster(masterId, afterId, overclockChunk);
      if (miners.length === 0) break;
      afterId = miners[miners.length - 1]!.id;
      const inputs = miners
        .sort((a, b) => a.fbox_id - b.fbox_id || a.id - b.id)
        .map(
          (m): IssueCommand => ({
            areaId: m.area_id,
            fboxId: m.fbox_id,
            minerId: m.id,
            tankId: m.tank_id,
            kind: 'miner.overclock',
            target: { sn: m.sn, ...(m.outlet != null && { outlet: m.outlet }) },
            params: { status: policy.status, min: policy.min, max: policy.max },
            userId,
            batchId,
          }),
        );
      await this.deps.commands.issueMany(inputs);
      count += inputs.length;
      if (miners.length < overclockChunk) break;
    }
    const row = {
      status: policy.status === 'on' ? 1 : 0,
      min: policy.min,
      max: policy.max,
      batch_id: batchId,
      miners: count,
      sent_at: this.deps.clock(),
    };
    await this.repo.savePolicy(masterId, row);
    return { batch_id: batchId, miners: count };
  }

  /** The policy last sent to the caller's master account, with its commands' progress. */
  async overclockPolicy(user: SessionUser): Promise<OverclockPolicy> {
    const [policy, account] = await Promise.all([
      this.repo.policy(user.masterId),
      this.repo.overclockSettings(user.masterId),
    ]);
    const counts = Object.fromEntries(commandStatuses.map((s) => [s, 0])) as Record<CommandStatus, number>;
    if (policy?.batch_id) {
      for (const r of await this.repo.batchCounts(policy.batch_id))
        counts[r.status as CommandStatus] = Number(r.n);
    }
    if (policy) {
      return {
        status: policy.status === 1 ? 'on' : 'off',
        min: policy.min,
        max: policy.max,
        batch_id: policy.batch_id,
        miners: policy.miners,
        sent_at: policy.sent_at,
        counts,
      };
    }
    return {
      status: account?.auto_frequency === 1 ? 'on' : 'off',
      min: account?.auto_frequency_min ?? 0,
      max: account?.auto_frequency_max ?? 0,
      batch_id: null,
      miners: 0,
      sent_at: null,
      counts,
    };
  }

  /**
   * Refuses pool changes in a mine whose master has Lock Pool on.
   * @throws ApiError FORBIDDEN `api.poolLocked`
   */
  async assertPoolUnlocked(areaId: number): Promise<void> {
    if (await this.repo.poolLocked(areaId)) throw new ApiError(Code.FORBIDDEN, 'api.poolLocked');
  }

  /** The cloud changed these miners' pool: that is now their configured pool. */
  async recordConfiguredPool(minerIds: number[], poolAddress: string, worker: string): Promise<void> {
    if (minerIds.length === 0) return;
    const now = this.deps.clock();
    const row = { pool_address: normalizePool(poolAddress), worker: worker.trim(), updated_at: now };
    await this.repo.setConfiguredPool(minerIds, row);
  }

  /** Lock Pool turned on: every miner's reported pool and worker become its configured ones. */
  async snapshotPools(masterId: number): Promise<void> {
    await this.repo.snapshotPools(masterId, this.deps.clock());
  }
}
