import { Socket } from 'node:net';

/**
 * One request over its own TCP connection, as the miners' APIs take them (CGMiner, Whatsminer v2
 * and v3): connect within the connect time-out, send, read until the answer is whole, all within
 * the request's time-out, then close. How an answer ends (a NUL, the peer closing, a length
 * prefix) is the caller's `reader`; connecting, timing and the errors are here.
 */

/** Why a request failed, in words fit for the log and an ack. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind: 'connect' | 'timeout' | 'closed' | 'too_large' | 'invalid' | 'refused',
  ) {
    super(message);
  }
}

export interface RequestOptions {
  host: string;
  port: number;
  /** TCP connect time-out, ms. */
  connectTimeoutMs: number;
  /** The whole request: connect, send, read the answer, ms. */
  timeoutMs: number;
  /** Largest answer accepted, bytes: a flood of garbage (or a bogus length) must not grow without end. */
  maxBytes?: number;
}

export const DEFAULT_MAX_BYTES = 1 << 20;

/** Reads one answer off the connection; `where` is `host:port`, for its errors. */
export interface AnswerReader {
  /** Takes a chunk; returns the answer (or why it is refused) once whole, else undefined. */
  data(chunk: Buffer): string | ApiError | undefined;
  /** The peer closed the connection (or reset it after connecting): the answer, or why there is none. */
  end(): string | ApiError;
}

/** `closed without answering` when nothing came, `closed in the middle` when part of an answer did. */
export const closedError = (where: string, received: number): ApiError =>
  received > 0
    ? new ApiError(`${where} closed in the middle of its answer`, 'invalid')
    : new ApiError(`${where} closed without answering`, 'closed');

export const socketRequest = (
  payload: Buffer | string,
  options: RequestOptions,
  reader: (where: string) => AnswerReader,
): Promise<string> =>
  new Promise<string>((resolve, reject) => {
    const socket = new Socket();
    const where = `${options.host}:${options.port}`;
    const read = reader(where);
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
    const onEnd = () => finish(read.end());

    socket.on('connect', () => {
      connected = true;
      clearTimeout(connectTimer);
      socket.write(payload);
    });
    socket.on('data', (chunk: Buffer) => {
      const answer = read.data(chunk);
      if (answer !== undefined) finish(answer);
    });
    socket.on('end', onEnd);
    socket.on('close', onEnd);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // Firmware that resets the connection after its answer has still answered.
      if (connected && error.code === 'ECONNRESET') {
        onEnd();
        return;
      }
      const reason = error.code === 'ECONNREFUSED' ? 'connection refused' : error.message;
      finish(new ApiError(`${where}: ${reason}`, connected ? 'closed' : 'connect'));
    });
    socket.connect(options.port, options.host);
  });

/**
 * Reads an answer that ends with a NUL (cgminer-family firmware), when the peer closes, or when
 * `whole(received)` says it is complete; NULs are not part of it.
 */
export const untilNulOrClose =
  (maxBytes = DEFAULT_MAX_BYTES, whole?: (received: Buffer) => boolean) =>
  (where: string): AnswerReader => {
    let received = Buffer.alloc(0);
    return {
      data: (chunk) => {
        const nul = chunk.indexOf(0);
        received = Buffer.concat([received, nul >= 0 ? chunk.subarray(0, nul) : chunk]);
        if (received.length > maxBytes)
          return new ApiError(`answer from ${where} larger than ${maxBytes} bytes`, 'too_large');
        if (nul >= 0 || whole?.(received)) return received.toString('utf8');
        return undefined;
      },
      end: () => (received.length > 0 ? received.toString('utf8') : closedError(where, 0)),
    };
  };

/**
 * A poll of several requests shares one budget: each call gives what is left of `budgetMs` for the
 * next request, or throws a time-out once it is spent.
 */
export const timeBudget = (budgetMs: number): (() => number) => {
  const started = Date.now();
  return () => {
    const left = budgetMs - (Date.now() - started);
    if (left <= 0) throw new ApiError(`no complete answer within ${budgetMs} ms`, 'timeout');
    return left;
  };
};
