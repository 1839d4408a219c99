import { z } from 'zod';

/**
 * The media server's HTTP API as ZLMediaKit documents it (its wiki "MediaServer支持的HTTP API" and
 * `server/WebApi.cpp`): every call carries `secret`; answers are HTTP 200 with
 * `{code, msg?, data?}`, `code` 0 for success, -100 for a wrong secret, -300 for a missing
 * argument (a missing secret included). `getSnap` answers the JPEG itself, or — when it could not
 * capture the stream — the server's placeholder image (`api.defaultSnap`, a PNG by default).
 */

/** Why a call failed; each kind has a message (`camera.error.<kind>`) the user reads. */
export type ZlmErrorKind =
  | 'notConfigured'
  | 'unreachable'
  | 'timeout'
  | 'auth'
  | 'http'
  | 'api'
  | 'badAnswer'
  | 'noSnapshot';

export class ZlmError extends Error {
  override name = 'ZlmError';
  constructor(
    readonly kind: ZlmErrorKind,
    /** Words for the message's `{{detail}}`: never the secret. */
    readonly detail = '',
  ) {
    super(`${kind}${detail ? `: ${detail}` : ''}`);
  }
}

/** Where the media server is: its base address and the API secret (`ZLM_URL`, `ZLM_SECRET`). */
export interface ZlmTarget {
  url: string;
  secret: string;
}

/** One entry of the media list: a stream in one schema (rtsp, rtmp, hls …). */
const MediaSchema = z.object({
  app: z.string(),
  stream: z.string(),
  schema: z.string(),
  vhost: z.string().optional(),
  readerCount: z.number().optional(),
  totalReaderCount: z.number().optional(),
  originType: z.number().optional(),
  originUrl: z.string().optional(),
});
export type ZlmMedia = z.infer<typeof MediaSchema>;

/** The answer envelope; `data` is absent when nothing matched. */
const AnswerSchema = z.object({
  code: z.number(),
  msg: z.string().optional(),
  data: z.array(MediaSchema).nullish(),
});

/** Timeouts of the calls: the media list, and the capture the media server runs for a snapshot. */
export interface ZlmTimeouts {
  requestMs: number;
  snapSeconds: number;
}

const defaultTimeouts: ZlmTimeouts = { requestMs: 5_000, snapSeconds: 10 };

/** A client of one media server; without a target every call fails as "not configured". */
export class ZlmClient {
  constructor(
    private target: ZlmTarget | null,
    private readonly timeouts: ZlmTimeouts = defaultTimeouts,
  ) {}

  /** Points the client at another media server (the demo's, started in process). */
  setTarget(target: ZlmTarget | null): void {
    this.target = target;
  }

  get configured(): boolean {
    return this.target !== null;
  }

  /** Every stream the media server has now, in every schema it serves. */
  async mediaList(): Promise<ZlmMedia[]> {
    const response = await this.request('getMediaList', {}, this.timeouts.requestMs);
    const answer = AnswerSchema.safeParse(await this.json(response));
    if (!answer.success) throw new ZlmError('badAnswer', 'getMediaList');
    this.check(answer.data);
    return answer.data.data ?? [];
  }

  /**
   * A JPEG of `url` captured now (`expire_sec=1`: no older cached snapshot). The placeholder image
   * the media server sends when it cannot capture is a failure, never a snapshot.
   */
  async snap(url: string): Promise<Uint8Array> {
    const { snapSeconds, requestMs } = this.timeouts;
    const response = await this.request(
      'getSnap',
      { url, timeout_sec: String(snapSeconds), expire_sec: '1' },
      snapSeconds * 1000 + requestMs,
    );
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) {
      const answer = AnswerSchema.safeParse(await this.json(response));
      if (!answer.success) throw new ZlmError('badAnswer', 'getSnap');
      this.check(answer.data);
      throw new ZlmError('badAnswer', 'getSnap');
    }
    const bytes = new Uint8Array(await this.read(response));
    const isJpeg = bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
    if (!type.includes('image/jpeg') || !isJpeg) throw new ZlmError('noSnapshot');
    return bytes;
  }

  private async request(api: string, params: Record<string, string>, timeoutMs: number): Promise<Response> {
    const target = this.target;
    if (!target) throw new ZlmError('notConfigured');
    // Under the base address's path: a media server behind a reverse proxy may have a prefix.
    const url = new URL(`${target.url.replace(/\/+$/, '')}/index/api/${api}`);
    url.search = new URLSearchParams({ secret: target.secret, ...params }).toString();
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if (isTimeout(error)) throw new ZlmError('timeout', String(Math.round(timeoutMs / 1000)));
      throw new ZlmError('unreachable', this.hide(reasonOf(error)));
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ZlmError('http', String(response.status));
    }
    return response;
  }

  private async read(response: Response): Promise<ArrayBuffer> {
    try {
      return await response.arrayBuffer();
    } catch (error) {
      if (isTimeout(error)) throw new ZlmError('timeout', String(this.timeouts.snapSeconds));
      throw new ZlmError('unreachable', this.hide(reasonOf(error)));
    }
  }

  private async json(response: Response): Promise<unknown> {
    const text = new TextDecoder().decode(await this.read(response));
    try {
      return JSON.parse(text);
    } catch {
      throw new ZlmError('badAnswer', 'not JSON');
    }
  }

  /** A refusal of the media server: -100 (wrong secret) or a missing secret is an auth failure. */
  private check(answer: { code: number; msg?: string | undefined }): void {
    if (answer.code === 0) return;
    const detail = this.hide(`${answer.code} ${answer.msg ?? ''}`.trim()).slice(0, 250);
    if (answer.code === -100 || (answer.code === -300 && /secret/i.test(answer.msg ?? '')))
      throw new ZlmError('auth', detail);
    throw new ZlmError('api', detail);
  }

  /** A text without the secret, should anything echo it. */
  private hide(text: string): string {
    const secret = this.target?.secret;
    return secret ? text.split(secret).join('***') : text;
  }
}

const isTimeout = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');

/** The lowest cause of a fetch failure ("connect ECONNREFUSED 127.0.0.1:9"). */
const reasonOf = (error: unknown): string => {
  let current: unknown = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(error);
};
