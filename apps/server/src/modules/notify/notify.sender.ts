import { randomBytes } from 'node:crypto';
import { type AlertMetric, type AlertTarget, type PushChannel, parseLanguage } from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { type Channel, SendError } from './channels/channel.js';
import type { NotifyRepository } from './notify.repository.js';
import { type AlertFacts, alertMessage } from './notify-message.js';

/** Reasons stored on a row that the alert's notification list translates. */
export const reasons = { noCredit: 'no SMS credit', notConfigured: 'not configured' } as const;

/** How long a claim protects rows being sent: longer than any send may take (each send times out after NotifyConfig.timeoutMs, 15 s). */
export const leaseMs = 60_000;
/** Groups claimed per run, and sent at once. */
const batch = 50;
const parallel = 8;

/** The wait before try n+1: 10 s, 30 s, 90 s, … at most 30 min. */
export const backoffMs = (attempts: number): number => Math.min(10_000 * 3 ** (attempts - 1), 30 * 60_000);

export interface SenderOptions {
  repo: NotifyRepository;
  channels: Partial<Record<PushChannel, Channel>>;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: string;
  groupMs: number;
  maxAttempts: number;
}

/**
 * Sends the outbox. A run claims due groups one conditional update each (a lease, so two processes
 * never send one row and a crashed process's rows are sent after its lease), merges each group's
 * rows into one message, sends it, and marks the rows sent right after the provider accepted it;
 * a failure is retried with backoff, or marks the rows failed with the reason.
 */
export class NotifySender {
  readonly owner = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private running: Promise<number> | undefined;

  constructor(private readonly o: SenderOptions) {}

  /** Sends what is due; returns how many groups were sent or settled. Runs do not overlap in a process. */
  sendDue(): Promise<number> {
    this.running ??= this.run().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Waits for a run in progress. */
  async settled(): Promise<void> {
    await this.running;
  }

  private async run(): Promise<number> {
    let done = 0;
    for (;;) {
      const now = this.o.clock();
      const groups = await this.o.repo.dueGroups(now, batch);
      if (groups.length === 0) return done;
      let claimedAny = false;
      for (let i = 0; i < groups.length; i += parallel) {
        const results = await Promise.all(groups.slice(i, i + parallel).map((g) => this.sendGroup(g)));
        for (const sent of results)
          if (sent) {
            claimedAny = true;
            done++;
          }
      }
      // Another process holds what is left, or everything due is done.
      if (!claimedAny || groups.length < batch) return done;
    }
  }

  private async sendGroup(groupKey: string): Promise<boolean> {
    const now = this.o.clock();
    const ids = await this.o.repo.claimGroup(groupKey, this.owner, now, now + this.o.groupMs, now + leaseMs);
    if (ids.length === 0) return false;
    try {
      await this.deliver(ids);
    } catch (error) {
      // A bug or a lost database: the lease runs out and the rows are tried again.
      this.o.log.error({ err: error, groupKey }, 'notification send failed');
    }
    return true;
  }

  private async deliver(ids: number[]): Promise<void> {
    const { repo } = this.o;
    const rows = await repo.claimed(ids, this.owner);
    const first = rows[0];
    if (!first) return;
    const held = rows.map((r) => r.id);
    const channel = this.o.channels[first.channel];
    if (!channel) {
      await repo.settle(held, this.owner, { status: 'failed', error: reasons.notConfigured });
      return;
    }
    const alerts: AlertFacts[] = [];
    const seen = new Set<number>();
    for (const r of rows) {
      if (seen.has(r.alert_id)) continue;
      seen.add(r.alert_id);
      alerts.push({
        id: r.alert_id,
        area_id: r.area_id,
        metric: r.metric as AlertMetric,
        level: r.level,
        device_kind: r.device_kind as AlertTarget,
        device_name: r.device_name,
        value: r.value,
        detail: r.detail,
        started_at: Number(r.started_at),
        ended_at: r.ended_at === null ? null : Number(r.ended_at),
        mine_name: r.mine_name,
        fbox_name: r.fbox_name ?? '',
      });
    }
    const message = alertMessage(
      { language: parseLanguage(first.language), timeZone: first.time_zone },
      first.kind,
      alerts,
      this.o.publicUrl,
    );
    if (first.channel === 'sms' && !(await repo.takeSmsCredit(first.user_id))) {
      await repo.settle(held, this.owner, { status: 'failed', error: reasons.noCredit });
      return;
    }
    try {
      await channel.send(first.address, message);
    } catch (error) {
      if (first.channel === 'sms') await repo.returnSmsCredit(first.user_id);
      const failure = error instanceof SendError ? error : new SendError(String(error), true);
      const attempts = Math.max(...rows.map((r) => r.attempts)) + 1;
      const last = !failure.retry || attempts >= this.o.maxAttempts;
      await repo.settle(
        held,
        this.owner,
        last
          ? { status: 'failed', error: failure.message }
          : {
              status: 'pending',
              error: failure.message,
              nextAttemptAt: this.o.clock() + Math.max(backoffMs(attempts), failure.retryAfterMs ?? 0),
            },
      );
      this.o.log.warn(
        { channel: first.channel, attempts, retry: !last, error: failure.message },
        'notification not sent',
      );
      return;
    }
    await repo.settle(held, this.owner, { status: 'sent', at: this.o.clock() });
  }
}
