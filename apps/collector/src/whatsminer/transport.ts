import {
  type AnswerReader,
  ApiError,
  closedError,
  DEFAULT_MAX_BYTES,
  type RequestOptions,
  socketRequest,
  untilNulOrClose,
} from '../socket-request.js';

/**
 * The two Whatsminer transports, one request per TCP connection:
 * - API v2 (Whatsminer API V2.0.5 §2, port 4028): the request is JSON text; the answer is read
 *   until the miner closes the connection, or until it is a whole JSON object, or up to a NUL (as
 *   cgminer-family firmware ends its answers);
 * - API v3 (apidoc.whatsminer.com "TCP Data Framing", port 4433): each message is a 4-byte
 *   little-endian length and then that many bytes of JSON; a length of 0 is the heartbeat, skipped.
 */

export type TransportOptions = RequestOptions;

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

/** Reads the first whole v3 frame (heartbeats dropped). */
const oneFrame =
  (maxBytes: number) =>
  (where: string): AnswerReader => {
    let received = Buffer.alloc(0);
    /** The frame once it is all here; null while incomplete. */
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
    return {
      data: (chunk) => {
        received = Buffer.concat([received, chunk]);
        return frame() ?? undefined;
      },
      end: () => frame() ?? closedError(where, received.length),
    };
  };

/** API v2: sends `request` (JSON) and resolves with the raw answer text (NULs removed). */
export const requestV2 = (request: object, options: TransportOptions): Promise<string> =>
  socketRequest(JSON.stringify(request), options, untilNulOrClose(options.maxBytes, isWholeJson));

/** API v3: sends `request` framed and resolves with the JSON text of the first answer frame. */
export const requestV3 = (request: object, options: TransportOptions): Promise<string> =>
  socketRequest(
    encodeFrame(JSON.stringify(request)),
    options,
    oneFrame(options.maxBytes ?? DEFAULT_MAX_BYTES),
  );

/** One v3 message: its length (4 bytes, little-endian), then the text. */
export const encodeFrame = (text: string): Buffer => {
  const body = Buffer.from(text, 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length, 0);
  return Buffer.concat([length, body]);
};
