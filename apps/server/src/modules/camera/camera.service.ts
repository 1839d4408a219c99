import { Readable } from 'node:stream';
import {
  type Camera,
  type CameraImagesBody,
  type CameraSaveBody,
  type CameraSettings,
  type CameraSettingsBody,
  type CameraStatus,
  Code,
  cameraImagePage,
  cameraLimits,
  type Language,
  type SharedMessageKey,
  translate,
  zlmStreamOf,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../lib/api-error.js';
import type { AreaCaller } from '../auth/auth.service.js';
import { notFound, requireManage } from '../device-access.js';
import type { FileDownload } from '../handler.js';
import { CameraRepository, type CameraRow } from './camera.repository.js';
import { type ZlmClient, ZlmError, type ZlmMedia } from './zlm.client.js';

type CameraDeps = Pick<FastifyInstance, 'db' | 'clock' | 'areas'> & { zlm: ZlmClient };

const cameraOf = (row: CameraRow): Camera => ({
  id: row.id,
  fbox_id: row.fbox_id,
  name: row.name,
  stream: row.stream,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/** A failure of the media server in the reader's words. */
export const zlmErrorText = (lang: Language, kind: string, detail: string): string => {
  const key = `camera.error.${kind}` as SharedMessageKey;
  return kind === 'timeout'
    ? translate(lang, key, { seconds: detail })
    : translate(lang, key, { detail: detail || '-' });
};

/**
 * The media list's entries of a camera: by `app` and `stream` for a stream of the media server, by
 * the proxy's origin address for a camera named by its own rtsp:// / rtmp:// address.
 */
export const mediaOf = (media: ZlmMedia[], stream: string): ZlmMedia[] => {
  const named = zlmStreamOf(stream);
  return named
    ? media.filter((m) => m.app === named.app && m.stream === named.stream)
    : media.filter((m) => m.originUrl === stream);
};

/**
 * Cameras of the FBOXes (issue 15): who sees a mine sees its cameras, their status and snapshots;
 * masters and administrators add, edit and delete them and set the mine's snapshot interval and
 * retention. A camera of an FBOX outside the caller's mines answers "not found".
 */
export class CameraService {
  constructor(private readonly deps: CameraDeps) {}

  private repo() {
    return new CameraRepository(this.deps.db);
  }

  private async requireFbox(user: AreaCaller, areaId: number, fboxId: number) {
    const access = await this.deps.areas.requireAccess(user, areaId);
    if (!(await this.repo().fboxInArea(areaId, fboxId))) notFound();
    return access;
  }

  /** The cameras of an FBOX of the mine, or of the whole mine when no FBOX is named. */
  async list(user: AreaCaller, areaId: number, fboxId: number | undefined): Promise<Camera[]> {
    if (fboxId === undefined) {
      await this.deps.areas.requireAccess(user, areaId);
      return (await this.repo().listByArea(areaId)).map(cameraOf);
    }
    await this.requireFbox(user, areaId, fboxId);
    return (await this.repo().listByFbox(areaId, fboxId)).map(cameraOf);
  }

  /** Adds a camera or edits one (also moving it to another FBOX of the same mine). */
  async save(user: AreaCaller, body: CameraSaveBody): Promise<Camera> {
    requireManage(await this.requireFbox(user, body.area_id, body.fbox_id));
    const repo = this.repo();
    const now = this.deps.clock();
    const values = { fbox_id: body.fbox_id, name: body.name, stream: body.stream };
    let id = body.id;
    if (id === undefined) {
      if ((await repo.countByFbox(body.fbox_id)) >= cameraLimits.perFbox)
        throw new ApiError(Code.CONFLICT, 'api.cameraLimit', { max: cameraLimits.perFbox });
      id = await repo.insert(values, now);
    } else {
      const existing = (await repo.find(body.area_id, id)) ?? notFound();
      if (existing.fbox_id !== body.fbox_id && (await repo.countByFbox(body.fbox_id)) >= cameraLimits.perFbox)
        throw new ApiError(Code.CONFLICT, 'api.cameraLimit', { max: cameraLimits.perFbox });
      await repo.update(id, values, existing.stream !== body.stream, now);
    }
    return cameraOf((await repo.find(body.area_id, id)) ?? notFound());
  }

  async delete(user: AreaCaller, areaId: number, id: number): Promise<void> {
    requireManage(await this.deps.areas.requireAccess(user, areaId));
    const repo = this.repo();
    if (!(await repo.find(areaId, id))) notFound();
    await repo.delete(id);
  }

  /**
   * Each camera of the FBOX with what the media list says of its stream now (online, readers) and
   * its last snapshot. The media server failing is an `error` the user reads, not "all offline".
   */
  async status(user: AreaCaller, areaId: number, fboxId: number, lang: Language): Promise<CameraStatus> {
    await this.requireFbox(user, areaId, fboxId);
    const repo = this.repo();
    const [rows, settings] = await Promise.all([repo.listByFbox(areaId, fboxId), repo.settings(areaId)]);
    const { zlm } = this.deps;
    let media: ZlmMedia[] | null = null;
    let error: string | null = null;
    if (zlm.configured && rows.length > 0) {
      try {
        media = await zlm.mediaList();
      } catch (failure) {
        if (!(failure instanceof ZlmError)) throw failure;
        error = zlmErrorText(lang, failure.kind, failure.detail);
      }
    }
    return {
      configured: zlm.configured,
      error,
      ...settings,
      checked_at: this.deps.clock(),
      cameras: rows.map((row) => {
        const entries = media ? mediaOf(media, row.stream) : null;
        return {
          ...cameraOf(row),
          online: entries ? entries.length > 0 : null,
          // Each schema of a stream is an entry; totalReaderCount counts the readers of all of them.
          readers: entries
            ? entries.reduce((most, m) => Math.max(most, m.totalReaderCount ?? m.readerCount ?? 0), 0)
            : null,
          last_snapshot_at: row.last_snapshot_at,
          last_error: row.last_error_kind
            ? zlmErrorText(lang, row.last_error_kind, row.last_error_detail ?? '')
            : null,
          last_error_at: row.last_error_at,
        };
      }),
    };
  }

  async images(user: AreaCaller, body: CameraImagesBody) {
    await this.requireFbox(user, body.area_id, body.fbox_id);
    const limit = Math.min(body.limit, cameraImagePage.max);
    const { items, total } = await this.repo().images({
      areaId: body.area_id,
      fboxId: body.fbox_id,
      cameraId: body.camera_id,
      from: body.from,
      to: body.to,
      page: body.page,
      limit,
    });
    return { items, total, page: body.page, limit };
  }

  /** One snapshot as a JPEG file, for those who see its camera's mine. */
  async image(user: AreaCaller, areaId: number, id: number): Promise<FileDownload> {
    await this.deps.areas.requireAccess(user, areaId);
    const image = (await this.repo().imageJpeg(areaId, id)) ?? notFound();
    const at = new Date(image.taken_at).toISOString().replace(/[:.]/g, '-');
    return {
      filename: `camera-${image.camera_id}-${at}.jpg`,
      contentType: 'image/jpeg',
      body: Readable.from([image.jpeg]),
    };
  }

  async settings(user: AreaCaller, areaId: number): Promise<CameraSettings> {
    await this.deps.areas.requireAccess(user, areaId);
    return { ...(await this.repo().settings(areaId)), configured: this.deps.zlm.configured };
  }

  async saveSettings(user: AreaCaller, body: CameraSettingsBody): Promise<CameraSettings> {
    requireManage(await this.deps.areas.requireAccess(user, body.area_id));
    const values = { interval_minutes: body.interval_minutes, retention_days: body.retention_days };
    const repo = this.repo();
    await repo.saveSettings(body.area_id, values, this.deps.clock());
    await repo.pullForward(body.area_id, values.interval_minutes);
    return { ...values, configured: this.deps.zlm.configured };
  }
}
