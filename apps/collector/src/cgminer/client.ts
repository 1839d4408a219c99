import { Socket } from 'node:net';

/**
 * The CGMiner-family API transport (cgminer API-README): one TCP connection per request to port
 * 4028 (by default), the request as JSON `{"command":"CMD","parameter":"PARAM"}`, the reply read
 * until the miner closes the connection; many firmwares (Avalon, Antminer) end it with a NUL byte
 * and some keep the socket open after it, so a NUL also ends the reply.
 */

export interface RequestOptions {
  host: string;
  port: number;
  /** TCP connect time-out, ms. */
  connectTimeoutMs: number;
  /** The whole request: connect, send, read to the end, ms. */
  timeoutMs: number;
  /** Largest reply accepted, bytes (cgminer caps its own at ~64 KiB; a flood of garbage must not grow without end). */
  maxBytes?: number;
}

/** Why a request failed, in words fit for the log and an ack. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: 'connect' | 'timeout' | 'closed' | 'too_large' | 'invalid' | 'refused',
  ) {
    super(message);
  }
}

const DEFAULT_MAX_BYTES = 1 << 20;

/** Sends `command` (with its `parameter`, if any) and resolves with the raw reply text (NULs removed). */
export const rawRequest = (command: string, parameter: string | undefined, options: RequestOptions) =>
  new Promise<string>((resolve, reject) => {
    const socket = new Socket();
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    let connected = false;
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    const where = `${options.host}:${options.port}`;

    const finish = (error: ApiError | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(overall);
      clearTimeout(connectTimer);
      socket.destroy();
      if (error) reject(error);
      else resolve(Buffer.concat(chunks).toString('utf8').replace(/\0/g, ''));
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

    socket.on('connect', () => {
      connected = true;
      clearTimeout(connectTimer);
      const request = parameter === undefined ? { command } : { command, parameter };
      socket.write(JSON.stringify(request));
    });
    socket.on('data', (chunk: Buffer) => {
      const nul = chunk.indexOf(0);
      const part = nul >= 0 ? chunk.subarray(0, nul) : chunk;
      size += part.length;
      if (size > maxBytes) {
        finish(new ApiError(`answer from ${where} larger than ${maxBytes} bytes`, 'too_large'));
        return;
      }
      chunks.push(part);
      if (nul >= 0) finish(null);
    });
    socket.on('end', () =>
      finish(size > 0 ? null : new ApiError(`${where} closed without answering`, 'closed')),
    );
    socket.on('close', () =>
      finish(size > 0 ? null : new ApiError(`${where} closed without answering`, 'closed')),
    );
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (size > 0 && connected && error.code === 'ECONNRESET') {
        finish(null);
        return;
      }
      const reason = error.code === 'ECONNREFUSED' ? 'connection refused' : error.message;
      finish(new ApiError(`${where}: ${reason}`, connected ? 'closed' : 'connect'));
    });
    socket.connect(options.port, options.host);
  });
