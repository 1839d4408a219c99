import type { FastifyBaseLogger } from 'fastify';
import type { StatusRepository } from '../devices/status.repository.js';
import type { Clock } from '../lib/clock.js';
import type { LiveEvents } from '../realtime/live-events.js';

/** A box that went online or offline (with it, when offline, its tanks and miners). */
export interface StatusChange {
  fbox: { id: number; area_id: number };
  online: boolean;
}

export type StatusListener = (change: StatusChange) => void | Promise<void>;

/**
 * Online/offline of FBOX gateways: from the retained status topic and last will, and from silence
 * (no telemetry for 3 reporting intervals). When a box goes offline nothing is known about its
 * tanks and miners any more, so they are marked offline with it.
 */
export class StatusService {
  private readonly listeners = new Set<StatusListener>();

  constructor(
    private readonly repo: StatusRepository,
    private readonly clock: Clock,
    private readonly live: LiveEvents,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Calls `listener` in this process after each change this process made (status topic, last will,
   * silence), once it is committed, so offline rules need not poll the state tables. Like ingest's
   * `onApplied`, a listener that throws is logged and changes nothing. Returns the unsubscribe function.
   */
  onChange(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Marks a box online (status topic); returns whether it changed. */
  async markOnline(fbox: { id: number; area_id: number }): Promise<boolean> {
    const changed = await this.repo.setOnline(fbox.id, this.clock());
    if (changed) this.changed(fbox, true);
    return changed;
  }

  /** Marks a box and its tanks and miners offline; returns whether the box changed. */
  async markOffline(fbox: { id: number; area_id: number }): Promise<boolean> {
    const changed = await this.repo.setOffline(fbox.id, this.clock());
    if (changed) this.changed(fbox, false);
    return changed;
  }

  private changed(fbox: { id: number; area_id: number }, online: boolean): void {
    this.live.publish({ type: 'status', areaId: fbox.area_id, fboxId: fbox.id, online });
    const change = { fbox: { id: fbox.id, area_id: fbox.area_id }, online };
    for (const listener of this.listeners) {
      const failed = (error: unknown) => this.log.error({ err: error }, 'status listener failed');
      try {
        void Promise.resolve(listener(change)).catch(failed);
      } catch (error) {
        failed(error);
      }
    }
  }

  /**
   * The offline detector: boxes marked online whose last telemetry (or status) is older than three
   * of their reporting intervals. `heardAt` tells when this process received a box's last report,
   * which may still wait to be written: behind a backlog, the stored time alone would call boxes
   * silent that are reporting. Returns how many went offline.
   */
  async detectSilence(heardAt: (fboxId: number) => number | undefined = () => undefined): Promise<number> {
    const now = this.clock();
    const rows = await this.repo.onlineBoxes();
    let count = 0;
    for (const row of rows) {
      const silentSince = Math.max(row.last_seen_at ?? 0, heardAt(row.id) ?? 0);
      if (now - silentSince >= 3 * row.reporting_interval_s * 1000 && (await this.markOffline(row))) count++;
    }
    return count;
  }
}
