import { Code, translate } from '@fbox/contracts';
import fp from 'fastify-plugin';
import { envelopeOf, sendEnvelope } from './envelope.js';

/**
 * Errors raised before a handler runs (unreadable JSON, unsupported content type, oversized body)
 * answer with a clear envelope and their 4xx status; anything else is logged and answers -500
 * without internals.
 */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error, request, reply) => {
      const status = (error as { statusCode?: number }).statusCode ?? 500;
      const lang = request.lang ?? 'en';
      if (status === 413) {
        return sendEnvelope(reply, envelopeOf(Code.VALIDATION, translate(lang, 'api.bodyTooLarge')), 413);
      }
      if (status >= 400 && status < 500) {
        request.log.info({ code: (error as { code?: string }).code }, 'unreadable request');
        return sendEnvelope(reply, envelopeOf(Code.VALIDATION, translate(lang, 'api.badRequest')), status);
      }
      request.log.error({ err: error }, 'request failed');
      return sendEnvelope(reply, envelopeOf(Code.SERVER_ERROR, translate(lang, 'api.serverError')), 500);
    });
  },
  { name: 'errors', dependencies: ['lang'] },
);
