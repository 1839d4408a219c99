import type { Generated } from 'kysely';

/** Row types of the camera tables (migration 0029_cameras). Times are UTC epoch ms. */

/** A camera of an FBOX: it goes where its FBOX goes (a transfer takes it to the new mine). */
export interface CamerasTable {
  id: Generated<number>;
  fbox_id: number;
  name: string;
  /** `app/stream` on the media server, or an rtsp:// / rtmp:// address. */
  stream: string;
  /** When the snapshot job may next try it: claimed by a conditional update, so one process tries. */
  next_snapshot_at: Generated<number>;
  last_snapshot_at: number | null;
  /** Why the last try failed (a `ZlmError` kind and its detail); null after a success. */
  last_error_kind: string | null;
  last_error_detail: string | null;
  last_error_at: number | null;
  created_at: number;
  updated_at: number;
}

/** A snapshot: the JPEG itself, kept until the mine's retention ends. */
export interface CameraImagesTable {
  id: Generated<number>;
  camera_id: number;
  taken_at: number;
  bytes: number;
  jpeg: Uint8Array;
}

/** Snapshot interval and retention of a mine's cameras; no row: the defaults. */
export interface CameraSettingsTable {
  area_id: number;
  interval_minutes: number;
  retention_days: number;
  updated_at: number;
}

declare module '../../db/schema.js' {
  interface DB {
    cameras: CamerasTable;
    camera_images: CameraImagesTable;
    camera_settings: CameraSettingsTable;
  }
}
