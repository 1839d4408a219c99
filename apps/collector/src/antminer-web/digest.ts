import { createHash, randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, type OutgoingHttpHeaders, request } from 'node:http';

/**
 * HTTP Digest access authentication, client side (RFC 7616, which keeps RFC 2617's and RFC 2069's
 * computations), as far as miner web servers need it: Bitmain's lighttpd answers
 * `WWW-Authenticate: Digest realm="antMiner Configuration", nonce="…", qop="auth"` (MD5, sometimes
 * with `algorithm=MD5`); older servers send no qop (RFC 2069). One request goes out without
 * credentials; a 401 carries the challenge, the request is repeated once with `Authorization`.
 * A second 401 means the credentials are wrong, unless it says `stale=true` (the nonce expired
 * between the two requests), which earns one more try with the fresh nonce.
 */

export type DigestAlgorithm = 'MD5' | 'MD5-sess' | 'SHA-256' | 'SHA-256-sess';

/** One `Digest` challenge from a `WWW-Authenticate` header. */
export interface DigestChallenge {
  realm: string;
  nonce: string;
  /** Offered qop values (`auth`, `auth-int`); empty for an RFC 2069 server. */
  qop: string[];
  /** As the server named it; undefined when it named none (MD5 then). */
  algorithm?: string;
  opaque?: string;
  /** The nonce expired; the credentials themselves were good. */
  stale: boolean;
}

/** Why an HTTP exchange failed, in words fit for the log and an ack. */
export class HttpError extends Error {
  constructor(
    message: string,
    readonly kind: 'connect' | 'timeout' | 'aborted' | 'closed' | 'too_large' | 'invalid' | 'auth' | 'status',
    /** The failed request carried credentials (the server had accepted the challenge round). */
    readonly authorized = false,
  ) {
    super(message);
  }
}

const hashes: Record<string, { hash: 'md5' | 'sha256'; sess: boolean }> = {
  md5: { hash: 'md5', sess: false },
  'md5-sess': { hash: 'md5', sess: true },
  'sha-256': { hash: 'sha256', sess: false },
  'sha-256-sess': { hash: 'sha256', sess: true },
};

const hashOf = (algorithm: string | undefined) => hashes[(algorithm ?? 'MD5').toLowerCase()];

export interface DigestInput {
  algorithm?: string;
  username: string;
  password: string;
  realm: string;
  nonce: string;
  method: string;
  /** The request-target exactly as sent (`/cgi-bin/get_miner_conf.cgi`). */
  uri: string;
  /** `auth`, or undefined for RFC 2069 (no qop, no nc, no cnonce). */
  qop?: 'auth';
  /** 8 hex digits, `00000001` for a nonce's first use. */
  nc?: string;
  cnonce?: string;
}

/** The `response` value: KD(H(A1), nonce:nc:cnonce:qop:H(A2)), or KD(H(A1), nonce:H(A2)) without qop. */
export const digestResponse = (input: DigestInput): string => {
  const algorithm = hashOf(input.algorithm);
  if (!algorithm) throw new HttpError(`unsupported digest algorithm ${input.algorithm}`, 'auth');
  const h = (text: string) => createHash(algorithm.hash).update(text, 'utf8').digest('hex');
  let ha1 = h(`${input.username}:${input.realm}:${input.password}`);
  if (algorithm.sess) ha1 = h(`${ha1}:${input.nonce}:${input.cnonce ?? ''}`);
  const ha2 = h(`${input.method}:${input.uri}`);
  if (!input.qop) return h(`${ha1}:${input.nonce}:${ha2}`);
  return h(`${ha1}:${input.nonce}:${input.nc}:${input.cnonce}:${input.qop}:${ha2}`);
};

/** `auth-param`s and scheme names of a `WWW-Authenticate` value, in order (RFC 9110 §11.2). */
const tokenize = (header: string): Array<{ scheme: string } | { key: string; value: string }> => {
  const items: Array<{ scheme: string } | { key: string; value: string }> = [];
  let i = 0;
  const skip = () => {
    while (i < header.length && /[\s,]/.test(header[i]!)) i++;
  };
  const token = (stop = /[\s,="]/) => {
    const start = i;
    while (i < header.length && !stop.test(header[i]!)) i++;
    return header.slice(start, i);
  };
  while (i < header.length) {
    skip();
    const name = token();
    if (!name) {
      i++; // a stray character: step over it rather than loop on it
      continue;
    }
    while (header[i] === ' ' || header[i] === '\t') i++;
    if (header[i] !== '=') {
      items.push({ scheme: name });
      continue;
    }
    i++;
    while (header[i] === ' ' || header[i] === '\t') i++;
    let value = '';
    if (header[i] === '"') {
      i++;
      while (i < header.length && header[i] !== '"') {
        if (header[i] === '\\' && i + 1 < header.length) i++;
        value += header[i];
        i++;
      }
      i++;
    } else value = token(/[\s,]/); // a token68-like value may hold '='
    items.push({ key: name.toLowerCase(), value });
  }
  return items;
};

/** The first usable `Digest` challenge among `WWW-Authenticate` values (several may share one value). */
export const parseChallenge = (values: string | string[]): DigestChallenge | null => {
  for (const value of Array.isArray(values) ? values : [values]) {
    let params: Record<string, string> | null = null;
    const found: Array<Record<string, string>> = [];
    for (const item of tokenize(value)) {
      if ('scheme' in item) {
        params = item.scheme.toLowerCase() === 'digest' ? {} : null;
        if (params) found.push(params);
      } else if (params) params[item.key] = item.value;
    }
    for (const p of found) {
      if (p.nonce === undefined || p.realm === undefined) continue;
      return {
        realm: p.realm,
        nonce: p.nonce,
        qop: (p.qop ?? '')
          .split(',')
          .map((q) => q.trim().toLowerCase())
          .filter(Boolean),
        ...(p.algorithm !== undefined && { algorithm: p.algorithm }),
        ...(p.opaque !== undefined && { opaque: p.opaque }),
        stale: (p.stale ?? '').toLowerCase() === 'true',
      };
    }
  }
  return null;
};

const quote = (value: string) => `"${value.replace(/[\\"]/g, '\\$&')}"`;

export interface AuthorizationInput {
  username: string;
  password: string;
  method: string;
  uri: string;
  /** Fixed in tests; random otherwise. */
  cnonce?: string;
  /** Requests made with this nonce so far, this one included. */
  nc?: number;
}

/** The `Authorization` header answering `challenge`. */
export const authorization = (challenge: DigestChallenge, input: AuthorizationInput): string => {
  if (!hashOf(challenge.algorithm))
    throw new HttpError(`unsupported digest algorithm ${challenge.algorithm}`, 'auth');
  if (challenge.qop.length > 0 && !challenge.qop.includes('auth'))
    throw new HttpError(`unsupported digest qop ${challenge.qop.join(', ')}`, 'auth');
  const qop = challenge.qop.length > 0 ? ('auth' as const) : undefined;
  const nc = (input.nc ?? 1).toString(16).padStart(8, '0');
  const cnonce = input.cnonce ?? randomBytes(12).toString('hex');
  const response = digestResponse({
    algorithm: challenge.algorithm,
    username: input.username,
    password: input.password,
    realm: challenge.realm,
    nonce: challenge.nonce,
    method: input.method,
    uri: input.uri,
    ...(qop && { qop, nc, cnonce }),
  });
  const parts = [
    `username=${quote(input.username)}`,
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(input.uri)}`,
    ...(challenge.algorithm !== undefined ? [`algorithm=${challenge.algorithm}`] : []),
    `response=${quote(response)}`,
    ...(qop ? [`qop=${qop}`, `nc=${nc}`, `cnonce=${quote(cnonce)}`] : []),
    ...(challenge.opaque !== undefined ? [`opaque=${quote(challenge.opaque)}`] : []),
  ];
  return `Digest ${parts.join(', ')}`;
};

export interface DigestRequest {
  host: string;
  port: number;
  /** Request-target: path and query. */
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  contentType?: string;
  username: string;
  password: string;
  /** The whole exchange, every round trip included, ms. */
  timeoutMs: number;
  /** Cancels the exchange from outside. */
  signal?: AbortSignal;
  /** Largest body accepted, bytes. */
  maxBytes?: number;
}

export interface HttpReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** Each `WWW-Authenticate` value as received (node joins repeated ones into one string). */
  challenges: string[];
  body: string;
}

const DEFAULT_MAX_BYTES = 1 << 20;

/** One HTTP round trip on its own connection; `signal` ends it with `reason()`'s error. */
const send = (
  options: DigestRequest,
  credentials: string | undefined,
  signal: AbortSignal,
  reason: () => HttpError,
) =>
  new Promise<HttpReply>((resolve, reject) => {
    const where = `${options.host}:${options.port}`;
    const authorized = credentials !== undefined;
    if (signal.aborted) {
      reject(reason());
      return;
    }
    const headers: OutgoingHttpHeaders = { Accept: 'application/json, text/plain, */*', Connection: 'close' };
    if (options.body !== undefined) {
      headers['Content-Type'] = options.contentType ?? 'application/json';
      headers['Content-Length'] = Buffer.byteLength(options.body);
    }
    if (credentials) headers.Authorization = credentials;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    let settled = false;
    let connected = false;

    const finish = (error: HttpError | null, reply?: HttpReply) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      req.destroy();
      if (error) reject(error);
      else resolve(reply!);
    };
    const onAbort = () => finish(reason());
    signal.addEventListener('abort', onAbort, { once: true });

    const req = request(
      {
        host: options.host,
        port: options.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes)
            finish(
              new HttpError(`answer from ${where} larger than ${maxBytes} bytes`, 'too_large', authorized),
            );
          else chunks.push(chunk);
        });
        res.on('end', () => {
          const challenges: string[] = [];
          for (let i = 0; i + 1 < res.rawHeaders.length; i += 2)
            if (res.rawHeaders[i]!.toLowerCase() === 'www-authenticate')
              challenges.push(res.rawHeaders[i + 1]!);
          finish(null, {
            status: res.statusCode ?? 0,
            headers: res.headers,
            challenges,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
        res.on('error', () =>
          finish(new HttpError(`${where} closed the connection mid-answer`, 'closed', authorized)),
        );
      },
    );
    req.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED') finish(new HttpError(`${where}: connection refused`, 'connect'));
      else if (error.code?.startsWith('HPE_'))
        finish(new HttpError(`${where} answered something that is not HTTP`, 'invalid', authorized));
      else if (connected || error.code === 'ECONNRESET')
        finish(new HttpError(`${where} closed the connection without answering`, 'closed', authorized));
      else finish(new HttpError(`${where}: ${error.message}`, 'connect'));
    });
    req.end(options.body);
  });

/**
 * Sends `options` with Digest authentication and resolves with the final reply, whatever its
 * status (a 404 is the caller's to judge). Rejects with an `HttpError`: `auth` for refused
 * credentials, `timeout` when the whole exchange outlasts `timeoutMs`, and so on.
 */
export const digestRequest = async (options: DigestRequest): Promise<HttpReply> => {
  const where = `${options.host}:${options.port}`;
  const timer = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([timer, options.signal]) : timer;
  const reason = () =>
    timer.aborted
      ? new HttpError(`no complete answer from ${where} within ${options.timeoutMs} ms`, 'timeout')
      : new HttpError(`request to ${where} cancelled`, 'aborted');
  const method = options.method ?? 'GET';

  let reply = await send(options, undefined, signal, reason);
  for (let attempt = 0; reply.status === 401; attempt++) {
    const challenge = parseChallenge(reply.challenges);
    if (!challenge) throw new HttpError(`${where} answered 401 without a Digest challenge`, 'auth');
    // The first 401 is the challenge itself; a later one is a refusal unless only the nonce went stale.
    if (attempt > 0 && !challenge.stale)
      throw new HttpError(`${where}: wrong user or password (user ${options.username})`, 'auth', true);
    if (attempt > 1) throw new HttpError(`${where} called a fresh nonce stale again`, 'auth', true);
    const credentials = authorization(challenge, {
      username: options.username,
      password: options.password,
      method,
      uri: options.path,
    });
    reply = await send(options, credentials, signal, reason);
  }
  return reply;
};
