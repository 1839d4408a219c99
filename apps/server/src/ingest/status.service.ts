import type { StatusRepository } from '../devices/status.repository.js';
import type { Clock } from '../lib/clock.js';
import type { LiveEvents } from '../realtime/live-events.js';

/**
 * Online/offline of FBOX gateways: from the retained status topic and last will, and from silence
 * (no telemetry for 3 reporting intervals). When a box goes offline nothing is known about its
 * tanks and miners any more, so they are marked offline with it.
 */
export class StatusService {
  constructor(
    private readonly repo: StatusRepository,
    private readonly clock: Clock,
    private readonly live: LiveEvents,
  ) {}

  /** Marks a box online (status topic); returns whether it changed. */
  async markOnline(fbox: { id: number; area_id: number }): Promise<boolean> {
    const changed = await this.repo.setOnline(fbox.id, this.clock());
    if (changed) this.live.publish({ type: 'status', areaId: fbox.area_id, fboxId: fbox.id, online: true });
    return changed;
  }

  /** Marks a box and its tanks and miners offline; returns whether the box changed. */
  async markOffline(fbox: { id: number; area_id: number }): Promise<boolean> {
    const changed = await this.repo.setOffline(fbox.id, this.clock());
    if (changed) this.live.publish({ type: 'status', areaId: fbox.area_id, fboxId: fbox.id, online: false });
    return changed;
  }

  /**
   * The offline detector: boxes marked online whose last telemetry (or status) is older than three
   * of their reporting intervals. Returns how many went offline.
   */
  async detectSilence(): Promise<number> {
    const now = this.clock();
    const rows = await this.repo.onlineBoxes();
    let count = 0;
    for (const row of rows) {
      const silentSince = row.last_seen_at ?? 0;
      if (now - silentSince >= 3 * row.reporting_interval_s * 1000 && (await this.markOffline(row))) count++;
    }
    return count;
  }
}
