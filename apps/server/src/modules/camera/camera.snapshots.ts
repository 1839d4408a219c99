import { zlmStreamOf } from '@fbox/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { CameraRepository } from './camera.repository.js';
import { mediaOf } from './camera.service.js';
import { type ZlmClient, ZlmError, type ZlmMedia } from './zlm.client.js';

/** Cameras one run looks at, at most; the rest are due at the next run. */
const batch = 200;
/** Snapshots taken at once: the media server runs one FFmpeg per capture. */
const parallel = 4;

/**
 * The address the media server captures a camera from: its own RTSP service for a stream it has
 * (`app/stream`), or the camera's address.
 */
export const snapUrlOf = (stream: string): string => {
  const named = zlmStreamOf(stream);
  return named ? `rtsp://127.0.0.1/${named.app}/${named.stream}` : stream;
};

export interface SnapshotRun {
  taken: number;
  failed: number;
  offline: number;
  expired: number;
}

/**
 * The snapshot job (run under the job runner's lease, every minute): each camera whose next
 * snapshot is due and whose stream the media list shows online is claimed until one interval later
 * and captured; snapshots past their mine's retention are deleted. Every decision reads the
 * database, so a second run at the same time, another process or a restart takes nothing twice.
 * A failure is stored on the camera as a reason the FBOX page shows.
 */
export class CameraSnapshots {
  constructor(
    private readonly deps: { db: Kysely<DB>; clock: Clock; zlm: ZlmClient; log: FastifyBaseLogger },
  ) {}

  async run(): Promise<SnapshotRun> {
    const repo = new CameraRepository(this.deps.db);
    const now = this.deps.clock();
    const result: SnapshotRun = { taken: 0, failed: 0, offline: 0, expired: 0 };
    result.expired = await repo.deleteExpired(now);
    if (!this.deps.zlm.configured) return result;
    const due = await repo.due(now, batch);
    if (due.length === 0) return result;
    let media: ZlmMedia[];
    try {
      media = await this.deps.zlm.mediaList();
    } catch (error) {
      if (!(error instanceof ZlmError)) throw error;
      // Nothing can be known of the streams: each due camera says why, and is tried next interval.
      for (const camera of due) {
        if (!(await repo.claim(camera.id, camera.next_snapshot_at, now + camera.interval_minutes * 60_000)))
          continue;
        await repo.setError(camera.id, error.kind, error.detail, now);
        result.failed++;
      }
      this.deps.log.warn({ reason: error.message }, 'camera snapshots: media list unavailable');
      return result;
    }
    // Offline cameras stay due: they are captured as soon as their stream is back.
    const online = due.filter((camera) => mediaOf(media, camera.stream).length > 0);
    result.offline = due.length - online.length;
    const queue = [...online];
    const worker = async () => {
      for (let camera = queue.shift(); camera; camera = queue.shift()) {
        const next = now + camera.interval_minutes * 60_000;
        if (!(await repo.claim(camera.id, camera.next_snapshot_at, next))) continue;
        try {
          const jpeg = await this.deps.zlm.snap(snapUrlOf(camera.stream));
          await repo.addImage(camera.id, jpeg, this.deps.clock());
          result.taken++;
        } catch (error) {
          if (!(error instanceof ZlmError)) throw error;
          await repo.setError(camera.id, error.kind, error.detail, this.deps.clock());
          result.failed++;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, online.length) }, worker));
    return result;
  }
}
