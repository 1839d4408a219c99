import { type RequestOptions, socketRequest, untilNulOrClose } from '../socket-request.js';

/**
 * The CGMiner-family API transport (cgminer API-README): one TCP connection per request to port
 * 4028 (by default), the request as JSON `{"command":"CMD","parameter":"PARAM"}`, the reply read
 * until the miner closes the connection; many firmwares (Avalon, Antminer) end it with a NUL byte
 * and some keep the socket open after it, so a NUL also ends the reply.
 */

export { ApiError, type RequestOptions } from '../socket-request.js';

/** Sends `command` (with its `parameter`, if any) and resolves with the raw reply text (NULs removed). */
export const rawRequest = (command: string, parameter: string | undefined, options: RequestOptions) =>
  socketRequest(
    JSON.stringify(parameter === undefined ? { command } : { command, parameter }),
    options,
    untilNulOrClose(options.maxBytes),
  );
