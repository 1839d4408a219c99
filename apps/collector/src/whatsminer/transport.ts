import { Socket } from 'node:net';
import { ApiError } from '../cgminer/client.js';

/**
 * The two Whatsminer transports, one request per TCP connection:
 * - API v2 (Whatsminer API V2.0.5 §2, port 4028): the request is JSON text; the answer is read
 *   until the miner closes the connection, or until it is a whole JSON object, or up to a NUL (as
 *   cgminer-family firmware ends its answers);
 * - API v3 (apidoc.whatsminer.com "TCP Data Framing", port 4433): each message is a 4-byte
 *   little-endian length and then that many bytes of JSON; a length of 0 is the heartbeat, skipped.
 */

export interface TransportOptions {
  host: string;
  port: number;
  /** TCP connect time-out, ms. */
  connectTimeoutMs: number;
  /** The whole request: connect, send, read the answer, ms. */
  timeoutMs: number;
  /** Largest answer accepted, bytes: a flood of garbage (or a bogus v3 length) must not grow without end. */
  maxBytes?: number;
}

type Framing = 'close' | 'length';

const DEFAULT_MAX_BYTES = 1 << 20;

/** A whole JSON object: the v2 answer is complete even if the firmware keeps the socket open. */
const isWholeJson = (received: Buffer): boolean => {
  const text = received.toString('utf8').trimEnd();
  if (!text.endsWith('}')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

const exchange = (payload: Buffer, framing: Framing, options: TransportOptions) =>
  new Promise<string>((resolve, reject) => {
    const socket = new Socket();
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const where = `${options.host}:${options.port}`;
    let received = Buffer.alloc(0);
    let settled = false;
    let connected = false;

    const finish = (result: string | ApiError): void => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      clearTimeout(connectTimer);
      socket.destroy();
      if (result instanceof ApiError) reject(result);
      else resolve(result);
    };
    const overall = setTimeout(
      () =>
        finish(new ApiError(`no complete answer from ${where} within ${options.timeoutMs} ms`, 'timeout')),
      options.timeoutMs,
    );
    const connectTimer = setTimeout(
      () =>
        finish(new ApiError(`no connection to ${where} within ${options.connectTimeoutMs} ms`, 'connect')),
      Math.min(options.connectTimeoutMs, options.timeoutMs),
    );

    /** A whole v3 frame, once it is all here (heartbeats dropped); null while incomplete. */
    const frame = (): string | ApiError | null => {
      while (received.length >= 4) {
        const length = received.readUInt32LE(0);
        if (length === 0) {
          received = received.subarray(4);
          continue;
        }
        if (length > maxBytes)
          return new ApiError(
            `answer from ${where} announces ${length} bytes, over ${maxBytes}`,
            'too_large',
          );
        if (received.length < 4 + length) return null;
        return received.subarray(4, 4 + length).toString('utf8');
      }
      return null;
    };

    const closedEarly = () =>
      received.length > 0
        ? new ApiError(`${where} closed in the middle of its answer`, 'invalid')
        : new ApiError(`${where} closed without answering`, 'closed');

    const onEnd = () => {
      if (framing === 'length') {
        finish(frame() ?? closedEarly());
        return;
      }
      finish(received.length > 0 ? received.toString('utf8') : closedEarly());
    };

    socket.on('connect', () => {
      connected = true;
      clearTimeout(connectTimer);
      socket.write(payload);
    });
    socket.on('data', (chunk: Buffer) => {
      if (framing === 'close') {
        const nul = chunk.indexOf(0);
        const part = nul >= 0 ? chunk.subarray(0, nul) : chunk;
        received = Buffer.concat([received, part]);
        if (received.length > maxBytes)
          finish(new ApiError(`answer from ${where} larger than ${maxBytes} bytes`, 'too_large'));
        else if (nul >= 0 || isWholeJson(received)) finish(received.toString('utf8'));
        return;
      }
      received = Buffer.concat([received, chunk]);
      const whole = frame();
      if (whole !== null) finish(whole);
    });
    socket.on('end', onEnd);
    socket.on('close', onEnd);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (connected && error.code === 'ECONNRESET') {
        onEnd();
        return;
      }
      const reason = error.code === 'ECONNREFUSED' ? 'connection refused' : error.message;
      finish(new ApiError(`${where}: ${reason}`, connected ? 'closed' : 'connect'));
    });
    socket.connect(options.port, options.host);
  });

/** API v2: sends `request` (JSON) and resolves with the raw answer text (NULs removed). */
export const requestV2 = (request: object, options: TransportOptions): Promise<string> =>
  exchange(Buffer.from(JSON.stringify(request), 'utf8'), 'close', options);

/** API v3: sends `request` framed and resolves with the JSON text of the first answer frame. */
export const requestV3 = (request: object, options: TransportOptions): Promise<string> =>
  exchange(encodeFrame(JSON.stringify(request)), 'length', options);

/** One v3 message: its length (4 bytes, little-endian), then the text. */
export const encodeFrame = (text: string): Buffer => {
  const body = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length, 0);
  return Buffer.concat([length, body]);
};
