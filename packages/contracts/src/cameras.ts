import { z } from 'zod';
import { AreaIdBodySchema, AreaScopeSchema, maxEpochMs } from './devices.js';
import { endpoint } from './endpoint.js';
import { listOf } from './envelope.js';
import { IdSchema, intRange, numeric, numericWithDefault, requiredText, rule } from './rules.js';

/**
 * Cameras of an FBOX (issue 15): a name and a stream on the deployment's media server, which speaks
 * ZLMediaKit's HTTP API (`ZLM_URL`, `ZLM_SECRET`). Whether a stream is online comes from the media
 * server's media list; a leased job stores a JPEG snapshot of every online camera at the mine's
 * interval and drops them after its retention period.
 */
export const cameraLimits = { nameMax: 64, streamMax: 512, perFbox: 16 } as const;

/** Minutes between two snapshots of a camera (per mine). */
export const cameraIntervalMinutes = { min: 1, max: 1440, default: 10 } as const;
/** Days a snapshot is kept (per mine). */
export const cameraRetentionDays = { min: 1, max: 90, default: 7 } as const;
/** Images per page of the gallery. */
export const cameraImagePage = { default: 24, max: 100 } as const;

/** An id of ZLMediaKit's `app` or `stream`: letters, digits, `_`, `.`, `-` (1 to 128). */
const zlmId = /^[A-Za-z0-9_.-]{1,128}$/;
/**
 * An RTSP or RTMP address (optionally over TLS) with a host and no blanks. No user info: a password
 * in it would be answered and logged; a camera that needs one is pulled by a proxy of the media
 * server, configured there, and named here by its `app/stream`.
 */
const streamUrl = /^(rtsps?|rtmps?):\/\/[^\s/?#@]+(\/\S*)?$/i;

/**
 * Whether `value` is a camera stream we accept: `app/stream` of a stream the media server has (a
 * camera pushed to it or pulled by one of its proxies), or the camera's own rtsp:// / rtmp:// address.
 */
export const isCameraStream = (value: string): boolean => {
  if (streamUrl.test(value)) return URL.canParse(value);
  const [app, stream, ...rest] = value.split('/');
  return rest.length === 0 && zlmId.test(app ?? '') && zlmId.test(stream ?? '');
};

/** The stream as `{app, stream}` when it names one on the media server, else null (an address). */
export const zlmStreamOf = (value: string): { app: string; stream: string } | null => {
  if (/^[a-z]+:\/\//i.test(value)) return null;
  const [app = '', stream = ''] = value.split('/');
  return { app, stream };
};

const StreamSchema = z
  .string({ error: rule('rule.required') })
  .trim()
  .min(1, { error: rule('rule.required') })
  .max(cameraLimits.streamMax, { error: rule('rule.tooLong', { max: cameraLimits.streamMax }) })
  .refine(isCameraStream, { error: rule('rule.cameraStream') });

/** A camera as stored. */
export const CameraSchema = z.object({
  id: z.number().int(),
  fbox_id: z.number().int(),
  name: z.string(),
  stream: z.string(),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Camera = z.infer<typeof CameraSchema>;

const optionalId = z.preprocess((v) => (v === '' || v === null ? undefined : v), IdSchema.optional());

export const CameraFboxBodySchema = AreaScopeSchema.extend({ fbox_id: IdSchema });
export type CameraFboxBody = z.infer<typeof CameraFboxBodySchema>;

/** The cameras of one FBOX, or (no `fbox_id`) of every FBOX of the mine (a board's camera tile). */
export const CameraListBodySchema = AreaScopeSchema.extend({ fbox_id: optionalId });

/** Adds a camera to an FBOX, or edits the one `id` names (it may move to another FBOX of the mine). */
export const CameraSaveBodySchema = CameraFboxBodySchema.extend({
  id: optionalId,
  name: requiredText(cameraLimits.nameMax),
  stream: StreamSchema,
});
export type CameraSaveBody = z.infer<typeof CameraSaveBodySchema>;

/** Why the media server could not answer, in the reader's language. */
export const CameraStatusSchema = z.object({
  /** Whether `ZLM_URL` is set: without it the camera features say "not configured". */
  configured: z.boolean(),
  /** Why the media list could not be read (null: it was, or not configured). */
  error: z.string().nullable(),
  interval_minutes: z.number().int(),
  retention_days: z.number().int(),
  /** When the media list was read (server time, epoch ms). */
  checked_at: z.number(),
  cameras: z.array(
    CameraSchema.extend({
      /** null: unknown (not configured, or the media server did not answer). */
      online: z.boolean().nullable(),
      /** Players watching the stream now (the media list's `readerCount`). */
      readers: z.number().int().nullable(),
      last_snapshot_at: z.number().nullable(),
      /** Why the last snapshot failed (null after a success). */
      last_error: z.string().nullable(),
      last_error_at: z.number().nullable(),
    }),
  ),
});
export type CameraStatus = z.infer<typeof CameraStatusSchema>;

const epochMs = numeric(
  z
    .number({ error: rule('rule.invalid') })
    .int({ error: rule('rule.invalid') })
    .nonnegative({ error: rule('rule.invalid') })
    .max(maxEpochMs, { error: rule('rule.invalid') }),
);
const emptyAsUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

/** Snapshots of an FBOX's cameras (or one camera's), newest first, taken in [from, to). */
export const CameraImagesBodySchema = CameraFboxBodySchema.extend({
  camera_id: optionalId,
  from: z.preprocess(emptyAsUndefined, epochMs.optional()),
  to: z.preprocess(emptyAsUndefined, epochMs.optional()),
  page: numericWithDefault(intRange(1, 1_000_000), 1),
  limit: numericWithDefault(intRange(1, cameraImagePage.max), cameraImagePage.default),
}).superRefine((q, ctx) => {
  if (q.from !== undefined && q.to !== undefined && q.to <= q.from)
    ctx.addIssue({ code: 'custom', path: ['to'], message: rule('rule.timeOrder') });
});
export type CameraImagesBody = z.infer<typeof CameraImagesBodySchema>;

export const CapturedImageSchema = z.object({
  id: z.number().int(),
  camera_id: z.number().int(),
  camera_name: z.string(),
  /** When the snapshot was taken (epoch ms). */
  taken_at: z.number(),
  /** Size of the JPEG in bytes. */
  bytes: z.number().int(),
});
export type CapturedImage = z.infer<typeof CapturedImageSchema>;

/** Snapshot interval and retention of a mine's cameras. */
export const CameraSettingsSchema = z.object({
  interval_minutes: z.number().int(),
  retention_days: z.number().int(),
  configured: z.boolean(),
});
export type CameraSettings = z.infer<typeof CameraSettingsSchema>;

export const CameraSettingsBodySchema = AreaScopeSchema.extend({
  interval_minutes: numeric(intRange(cameraIntervalMinutes.min, cameraIntervalMinutes.max)),
  retention_days: numeric(intRange(cameraRetentionDays.min, cameraRetentionDays.max)),
});
export type CameraSettingsBody = z.infer<typeof CameraSettingsBodySchema>;

const ZLM = '/ff-plat-api/api/zlm';
const Nothing = z.null();

/** Cameras of an FBOX, their status on the media server and their captured images. */
export const cameraEndpoints = {
  cameraList: endpoint({
    method: 'POST',
    path: `${ZLM}/camera/list`,
    permission: 'user',
    body: CameraListBodySchema,
    data: z.array(CameraSchema),
  }),
  cameraSave: endpoint({
    method: 'POST',
    path: `${ZLM}/camera/save`,
    permission: 'manage',
    body: CameraSaveBodySchema,
    data: CameraSchema,
    mutates: true,
    success: 'api.modified',
  }),
  cameraDelete: endpoint({
    method: 'POST',
    path: `${ZLM}/camera/delete`,
    permission: 'manage',
    body: AreaIdBodySchema,
    data: Nothing,
    mutates: true,
    success: 'api.modified',
  }),
  /** Each camera of the FBOX: online and readers from the media list, and its last snapshot. */
  cameraStatus: endpoint({
    method: 'GET',
    path: `${ZLM}/getCameraStatus`,
    permission: 'user',
    query: CameraFboxBodySchema,
    data: CameraStatusSchema,
  }),
  cameraImages: endpoint({
    method: 'POST',
    path: `${ZLM}/listCapturedImages`,
    permission: 'user',
    body: CameraImagesBodySchema,
    data: listOf(CapturedImageSchema),
  }),
  /** One captured image: the JPEG itself (`image/jpeg`), for those who see its mine. */
  cameraImage: endpoint({
    method: 'GET',
    path: `${ZLM}/capturedImage`,
    permission: 'user',
    query: AreaIdBodySchema,
    data: z.string(),
    download: true,
  }),
  cameraSettings: endpoint({
    method: 'GET',
    path: `${ZLM}/settings`,
    permission: 'user',
    query: AreaScopeSchema,
    data: CameraSettingsSchema,
  }),
  cameraSettingsSave: endpoint({
    method: 'POST',
    path: `${ZLM}/settings/save`,
    permission: 'manage',
    body: CameraSettingsBodySchema,
    data: CameraSettingsSchema,
    mutates: true,
    success: 'api.modified',
  }),
} as const;
