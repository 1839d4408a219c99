import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { renderCameraFrame } from './camera-frame.js';
import { type Clock, systemClock } from './model/clock.js';
import { hash32 } from './model/random.js';

/**
 * A media server for the simulated cameras, speaking ZLMediaKit's HTTP API (its wiki
 * "MediaServer支持的HTTP API", `server/WebApi.cpp`) for the two calls the server uses (docs/cameras.md):
 * `/index/api/getMediaList` (the streams online, one entry per schema, `data` absent when none
 * match) and `/index/api/getSnap` (a JPEG of the stream; the placeholder PNG when it cannot be
 * captured). Arguments come from the query, a form or a JSON body; every call needs `secret`
 * (-300 when missing, -100 when wrong). Our stand-in for the deployed media server: the demo mine's
 * cameras are its streams, with generated frames, and now and then one is offline.
 */
export interface ZlmStream {
  app: string;
  stream: string;
  /** Burnt into the frames (default `app/stream`). */
  label?: string;
}

export interface ZlmApiOptions {
  /** The streams this media server has (read at each call). */
  streams: () => Iterable<ZlmStream>;
  /** `api.secret`. */
  secret: string;
  clock?: Clock;
  host?: string;
  /** 0 (default): a free port. */
  port?: number;
  /** Share of 15-minute windows in which a stream is offline, 0–100 (default 10). */
  offlinePercent?: number;
  seed?: number;
}

export interface ZlmApi {
  url: string;
  secret: string;
  /** Forces a stream online or offline; undefined: back to its schedule. */
  setOnline(app: string, stream: string, online: boolean | undefined): void;
  /** Snapshots served so far (JPEGs only). */
  readonly snapshots: number;
  stop(): Promise<void>;
}

/** ZLMediaKit's answer codes (`ApiErr`). */
const AuthFailed = -100;
const InvalidArgs = -300;

/** A 1×1 PNG standing in for the media server's default snapshot (`api.defaultSnap`, logo.png). */
const placeholderPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const windowMs = 15 * 60_000;

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
      if (text.length > 65_536) req.destroy();
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });

/** The call's arguments: the body's (form or JSON), then the query's, which win as in ZLMediaKit. */
const argsOf = async (req: IncomingMessage, url: URL): Promise<Record<string, string>> => {
  const args: Record<string, string> = {};
  if (req.method === 'POST') {
    const type = req.headers['content-type'] ?? '';
    const body = await readBody(req);
    if (type.startsWith('application/x-www-form-urlencoded'))
      for (const [k, v] of new URLSearchParams(body)) args[k] = v;
    else if (type.startsWith('application/json')) {
      try {
        for (const [k, v] of Object.entries(JSON.parse(body) as Record<string, unknown>)) args[k] = String(v);
      } catch {
        // ZLMediaKit logs a bad JSON body and goes on with the query's arguments.
      }
    }
  }
  for (const [k, v] of url.searchParams) args[k] = v;
  return args;
};

/** Starts the media server on loopback; resolves once it listens. */
export const startZlmApi = async (options: ZlmApiOptions): Promise<ZlmApi> => {
  const clock = options.clock ?? systemClock;
  const offlinePercent = options.offlinePercent ?? 10;
  const seed = options.seed ?? 1;
  const forced = new Map<string, boolean>();
  const started = clock.now();
  let snapshots = 0;

  const keyOf = (app: string, stream: string) => `${app}/${stream}`;
  const isOnline = (s: ZlmStream, now: number): boolean => {
    const force = forced.get(keyOf(s.app, s.stream));
    if (force !== undefined) return force;
    return hash32(`${seed}:${s.app}/${s.stream}:${Math.floor(now / windowMs)}`) % 100 >= offlinePercent;
  };
  const online = (now: number) => [...options.streams()].filter((s) => isOnline(s, now));

  const json = (res: ServerResponse, body: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify(body, null, 3));
  };

  /** ZLMediaKit's CHECK_SECRET: null when the call may go on. */
  const refusal = (args: Record<string, string>) => {
    if (!args.secret) return { code: InvalidArgs, msg: 'Required parameter missed: "secret"' };
    if (args.secret !== options.secret) return { code: AuthFailed, msg: 'Incorrect secret' };
    return null;
  };

  const mediaList = (args: Record<string, string>, now: number) => {
    const data = online(now)
      .filter((s) => (!args.app || s.app === args.app) && (!args.stream || s.stream === args.stream))
      .filter(() => !args.vhost || args.vhost === '__defaultVhost__')
      .flatMap((s) => {
        const total = hash32(`${seed}:${s.app}/${s.stream}:readers:${Math.floor(now / 60_000)}`) % 4;
        return ['rtsp', 'rtmp']
          .filter((schema) => !args.schema || args.schema === schema)
          .map((schema, i) => ({
            app: s.app,
            stream: s.stream,
            schema,
            vhost: '__defaultVhost__',
            readerCount: i === 0 ? total : 0,
            totalReaderCount: total,
            originType: 2,
            originTypeStr: 'rtsp_push',
            originUrl: `rtsp://127.0.0.1:554/${s.app}/${s.stream}`,
            originSock: null,
            createStamp: Math.floor(started / 1000),
            aliveSecond: Math.max(0, Math.floor((now - started) / 1000)),
            bytesSpeed: 262_144,
            isRecordingMP4: false,
            isRecordingHLS: false,
            tracks: [
              {
                codec_id: 0,
                codec_id_name: 'H264',
                codec_type: 0,
                ready: true,
                width: 1280,
                height: 720,
                fps: 25,
              },
            ],
          }));
      });
    // ZLMediaKit appends to `data` per match: with none, the answer has no `data` at all.
    return data.length > 0 ? { code: 0, data } : { code: 0 };
  };

  const snap = (res: ServerResponse, args: Record<string, string>, now: number) => {
    const missing = ['url', 'timeout_sec', 'expire_sec'].filter((k) => !args[k]);
    if (missing.length > 0)
      return json(res, { code: InvalidArgs, msg: `Required parameter missed: ${missing.join(', ')}` });
    let path = '';
    try {
      path = new URL(args.url!).pathname;
    } catch {
      path = '';
    }
    const [, app, stream] = path.split('/');
    const source = online(now).find((s) => s.app === app && s.stream === stream);
    if (!source) {
      // FFmpeg could not open the stream: the default snapshot, as ZLMediaKit answers.
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(placeholderPng);
    }
    snapshots++;
    const frame = renderCameraFrame({ label: source.label ?? `${source.app}/${source.stream}`, at: now });
    res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': frame.length });
    res.end(frame);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://zlm.local');
    const api = url.pathname;
    if (api !== '/index/api/getMediaList' && api !== '/index/api/getSnap') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return res.end('Not Found');
    }
    const args = await argsOf(req, url);
    const refused = refusal(args);
    if (refused) return json(res, refused);
    const now = clock.now();
    if (api === '/index/api/getMediaList') return json(res, mediaList(args, now));
    return snap(res, args, now);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) json(res, { code: -400, msg: 'exception' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    secret: options.secret,
    setOnline(app, stream, value) {
      if (value === undefined) forced.delete(keyOf(app, stream));
      else forced.set(keyOf(app, stream), value);
    },
    get snapshots() {
      return snapshots;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
