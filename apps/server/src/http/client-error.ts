import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Code, type Language, parseLanguage, type SharedMessageKey, translate } from '@fbox/contracts';
import type { ConnectionError, FastifyInstance } from 'fastify';
import { envelopeOf } from './envelope.js';

/**
 * The language of a request Node could not parse, read from the bytes it had: the `lang` header,
 * else the `lang` / `language` cookie. The request never reached Fastify, so this is best effort;
 * English when neither is among the bytes read.
 */
const languageOf = (packet: unknown): Language => {
  const head = Buffer.isBuffer(packet) ? packet.toString('latin1') : '';
  const header = /\r\nlang:[ \t]*([A-Za-z-]+)/i.exec(head)?.[1];
  const cookie = /\r\ncookie:[^\r\n]*\b(?:lang|language)=([A-Za-z-]+)/i.exec(head)?.[1];
  return parseLanguage(header ?? cookie);
};

const answerOf = (code: string | undefined): [number, SharedMessageKey] => {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'api.headersTooLarge'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'api.requestTimeout'];
  return [400, 'api.badRequest'];
};

/**
 * Fastify's `clientErrorHandler`: requests Node refuses before routing (a URL or headers over its
 * 16 KiB limit, bytes that are not HTTP, a request that never finished) answer the JSON envelope
 * with their own status, like the errors of errors.plugin.ts, instead of Fastify's plain body.
 */
export function clientErrorHandler(this: unknown, error: ConnectionError, socket: Socket): void {
  // A reset connection has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, key] = answerOf(error.code);
  // Fastify binds the handler to its instance.
  (this as FastifyInstance).log.info({ code: error.code }, 'unreadable request');
  if (socket.writable) {
    const body = JSON.stringify(envelopeOf(Code.VALIDATION, translate(languageOf(error.rawPacket), key)));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
