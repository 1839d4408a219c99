import { randomBytes } from 'node:crypto';
import {
  Code,
  type CommandStatus,
  commandStatuses,
  type OverclockPolicy,
  type UserInfo,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import type { IssueCommand } from '../../devices/command.service.js';
import { ApiError } from '../../lib/api-error.js';
import type { SessionUser } from '../auth/auth.service.js';
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
      const miners = await this.deps.db
        .selectFrom('miners')
        .innerJoin('areas', 'areas.id', 'miners.area_id')
        .leftJoin('miner_state', 'miner_state.miner_id', 'miners.id')
        .select([
          'miners.id',
          'miners.area_id',
          'miners.fbox_id',
          'miners.tank_id',
          'miners.sn',
          'miner_state.outlet',
        ])
        .where('areas.owner_id', '=', masterId)
        .where('miners.id', '>', afterId)
        .orderBy('miners.id')
        .limit(overclockChunk)
        .execute();
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
    await this.deps.db
      .insertInto('overclock_policies')
      .values({ master_id: masterId, ...row })
      .onConflict((oc) => oc.column('master_id').doUpdateSet(row))
      .execute();
    return { batch_id: batchId, miners: count };
  }

  /** The policy last sent to the caller's master account, with its commands' progress. */
  async overclockPolicy(user: SessionUser): Promise<OverclockPolicy> {
    const db = this.deps.db;
    const [policy, account] = await Promise.all([
      db
        .selectFrom('overclock_policies')
        .selectAll()
        .where('master_id', '=', user.masterId)
        .executeTakeFirst(),
      db
        .selectFrom('users')
        .select(['auto_frequency', 'auto_frequency_min', 'auto_frequency_max'])
        .where('id', '=', user.masterId)
        .executeTakeFirst(),
    ]);
    const counts = Object.fromEntries(commandStatuses.map((s) => [s, 0])) as Record<CommandStatus, number>;
    if (policy?.batch_id) {
      const rows = await db
        .selectFrom('commands')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .where('batch_id', '=', policy.batch_id)
        .groupBy('status')
        .execute();
      for (const r of rows) counts[r.status as CommandStatus] = Number(r.n);
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
    const row = await this.deps.db
      .selectFrom('areas')
      .innerJoin('users', 'users.id', 'areas.owner_id')
      .select('users.pool_locked')
      .where('areas.id', '=', areaId)
      .executeTakeFirst();
    if (row?.pool_locked === 1) throw new ApiError(Code.FORBIDDEN, 'api.poolLocked');
  }

  /** The cloud changed these miners' pool: that is now their configured pool. */
  async recordConfiguredPool(minerIds: number[], poolAddress: string, worker: string): Promise<void> {
    if (minerIds.length === 0) return;
    const now = this.deps.clock();
    const row = { pool_address: normalizePool(poolAddress), worker: worker.trim(), updated_at: now };
    for (let i = 0; i < minerIds.length; i += 500) {
      await this.deps.db
        .insertInto('miner_pool_configs')
        .values(minerIds.slice(i, i + 500).map((miner_id) => ({ miner_id, ...row })))
        .onConflict((oc) => oc.column('miner_id').doUpdateSet(row))
        .execute();
    }
  }

  /** Lock Pool turned on: every miner's reported pool and worker become its configured ones. */
  async snapshotPools(masterId: number): Promise<void> {
    const now = this.deps.clock();
    await this.deps.db
      .insertInto('miner_pool_configs')
      .columns(['miner_id', 'pool_address', 'worker', 'updated_at'])
      .expression((eb) =>
        eb
          .selectFrom('miner_state')
          .innerJoin('areas', 'areas.id', 'miner_state.area_id')
          .select([
            'miner_state.miner_id',
            'miner_state.pool_address',
            'miner_state.worker',
            sql<number>`cast(${now} as bigint)`.as('updated_at'),
          ])
          .where('areas.owner_id', '=', masterId)
          .where('miner_state.pool_address', '<>', ''),
      )
      .onConflict((oc) =>
        oc.column('miner_id').doUpdateSet((eb) => ({
          pool_address: eb.ref('excluded.pool_address'),
          worker: eb.ref('excluded.worker'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}
