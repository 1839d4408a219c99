import { randomBytes } from 'node:crypto';
import { LogPartSchema, logPartLimits, minerLogLimits, rule } from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { FboxIdentity } from '../../devices/device.repository.js';
import { LogExportRepository, type RequestedMiner } from './log-export.repository.js';

type EngineDeps = Pick<FastifyInstance, 'db' | 'clock' | 'commands' | 'log'>;

/**
 * How long after a request's ack its parts may still be on the way (the ack and the parts travel
 * on different topics, so a broker may deliver the ack first).
 */
const partGraceMs = 10_000;

/** Our own reasons are stored as `@` + a shared message key (+ its parameters), see `reasonText`. */
const reason = (key: Parameters<typeof rule>[0], params?: Record<string, string | number>) =>
  `@${rule(key, params)}`;

/** What became of a requested miner: done, failed (with why), or still waiting (null). */
const outcomeOf = (
  r: RequestedMiner,
  now: number,
): { state: 'done' | 'failed'; error: string | null; bytes: number } | null => {
  if (r.status === null || r.status === 'timed_out')
    return { state: 'failed', error: reason('logExport.noAnswer'), bytes: 0 };
  if (r.status === 'failed') return { state: 'failed', error: r.error ?? 'failed', bytes: 0 };
  if (r.status !== 'acknowledged') return null;
  if (r.last_part !== null && r.parts === r.last_part + 1)
    return { state: 'done', error: null, bytes: r.bytes };
  if (now - (r.acked_at ?? now) < partGraceMs) return null;
  const parts = r.last_part === null ? '?' : r.last_part + 1;
  return { state: 'failed', error: reason('logExport.incomplete', { got: r.parts, parts }), bytes: 0 };
};

/**
 * The miner log export job (leased, so one process runs it at a time; everything it knows is in
 * the database, so another process or a restarted one carries on). Each run, for every processing
 * export: settles the miners whose request was answered, acknowledged with all its parts, refused
 * or timed out; asks for more, at most `minerLogLimits.perGateway` outstanding per gateway (an
 * offline FBOX's miners fail at once instead of waiting out the timeout); and finishes the export
 * when no miner is left. Then deletes the exports past their expiry.
 */
export class LogExportEngine {
  constructor(private readonly deps: EngineDeps) {}

  private repo() {
    return new LogExportRepository(this.deps.db);
  }

  async run(): Promise<void> {
    const repo = this.repo();
    for (const exp of await repo.processing(50)) {
      const now = this.deps.clock();
      const outcomes = [];
      for (const requested of await repo.requested(exp.id)) {
        const outcome = outcomeOf(requested, now);
        if (outcome) outcomes.push({ miner_id: requested.miner_id, ...outcome });
      }
      await repo.settle(exp.id, outcomes, now);
      await this.requestMore(repo, exp, now);
      await repo.recount(exp.id, now);
    }
    await repo.delete(await repo.expired(this.deps.clock(), 100));
  }

  private async requestMore(
    repo: LogExportRepository,
    exp: { id: number; area_id: number; from_ts: number; to_ts: number },
    now: number,
  ): Promise<void> {
    for (const box of await repo.queued(exp.id, minerLogLimits.perGateway)) {
      const ids = box.miners.map((m) => m.miner_id);
      if (!box.present || !box.online) {
        await repo.failQueued(
          exp.id,
          ids,
          reason(box.present ? 'logExport.fboxOffline' : 'logExport.minerGone'),
          now,
        );
        continue;
      }
      const live = new Set((await repo.liveMiners(ids)).map((m) => m.miner_id));
      const gone = ids.filter((id) => !live.has(id));
      if (gone.length > 0) await repo.failQueued(exp.id, gone, reason('logExport.minerGone'), now);
      const asked = box.miners.filter((m) => live.has(m.miner_id));
      if (asked.length === 0) continue;
      const rows = await this.deps.commands.rowsFor(
        asked.map((m) => ({
          id: randomBytes(16).toString('hex'),
          areaId: exp.area_id,
          fboxId: box.fbox_id,
          minerId: m.miner_id,
          kind: 'miner.logs' as const,
          target: { sn: m.sn },
          params: {
            from: Number(exp.from_ts),
            to: Number(exp.to_ts),
            max_bytes: minerLogLimits.minerBytes,
            part_bytes: logPartLimits.partBytes,
          },
          // The export records who asked; its requests send nobody an inbox message when they fail.
          userId: null,
          timeoutMs: minerLogLimits.answerSeconds * 1000,
        })),
      );
      await repo.request(exp.id, rows, now);
      await this.deps.commands.publishStored(rows.map((r) => r.id));
    }
  }

  /**
   * A part of a miner's log from its gateway (`fbox/<deviceId>/logs`): stored when a requested
   * miner of this FBOX waits for it, else dropped (a canceled export, a settled miner, another
   * FBOX's command). Malformed parts are dropped and logged; resolves once the part is stored.
   */
  async onLogPart(fbox: FboxIdentity, payload: Buffer): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.deps.log.warn({ deviceId: fbox.device_id }, 'log part is not JSON: dropped');
      return;
    }
    const parsed = LogPartSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      this.deps.log.warn(
        { deviceId: fbox.device_id, path: issue?.path.join('.'), message: issue?.message },
        'log part does not match the schema: dropped',
      );
      return;
    }
    const part = parsed.data;
    const stored = await this.repo().addPart(fbox.id, {
      command_id: part.id,
      part: part.part,
      last: part.last,
      data: part.data,
      bytes: Buffer.byteLength(part.data, 'utf8'),
    });
    if (!stored)
      this.deps.log.info(
        { deviceId: fbox.device_id, commandId: part.id },
        'log part nobody waits for: dropped',
      );
  }
}
