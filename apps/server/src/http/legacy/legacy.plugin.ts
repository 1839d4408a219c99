import {
  allows,
  Code,
  type Endpoint,
  type EndpointName,
  endpoints,
  isRecordedEndpoint,
  LegacyQuerySchema,
  limits,
  translate,
} from '@fbox/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import { fieldErrors, nulCharIssues } from '../../lib/field-errors.js';
import type { SessionUser } from '../../modules/auth/auth.service.js';
import { handlers } from '../../modules/features.js';
import type { FileDownload, HandlerContext } from '../../modules/handler.js';
import { recordCall } from '../../modules/oplog/oplog.recorder.js';
import { ApiError, envelopeOf, envelopeOfError, sendEnvelope, validationError } from '../envelope.js';

type AnyHandler = (ctx: HandlerContext<EndpointName>) => Promise<unknown>;

/**
 * The session token: the `logintoken` header for any method; the `Admin-Token` cookie only for
 * reads, so a cross-site form post that carries the cookie is not signed in (CSRF defence).
 */
const readToken = (request: FastifyRequest): string | undefined => {
  const header = request.headers.logintoken;
  if (typeof header === 'string' && header) return header;
  if (request.method === 'GET' || request.method === 'HEAD') return request.cookies?.[limits.tokenCookie];
  return undefined;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

class InvalidInput extends Error {
  constructor(readonly issues: z.core.$ZodIssue[]) {
    super('invalid input');
  }
}

const parse = <S extends z.ZodType>(schema: S, raw: unknown): z.output<S> => {
  const result = schema.safeParse(raw, { reportInput: true });
  if (!result.success) throw new InvalidInput(result.error.issues);
  return result.data;
};

/** Whether a request schema has an `area_id` field (object schemas, possibly refined). */
const hasAreaId = (schema: z.ZodType): boolean => {
  const def = (schema as { def?: { shape?: object; in?: z.ZodType } }).def;
  if (def?.shape) return 'area_id' in def.shape;
  return def?.in ? hasAreaId(def.in) : false;
};

/** A file download: the body as an attachment with an RFC 6266 file name. */
const sendFile = (reply: FastifyReply, file: FileDownload) =>
  reply
    .code(200)
    .type(file.contentType)
    .header(
      'content-disposition',
      `attachment; filename="${file.filename.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`,
    )
    .send(file.body);

/**
 * Serves every endpoint of the contract table at its path and under `/api`. The routes only
 * authenticate, validate with the contract schemas and wrap outcomes in the envelope; the rules
 * live in the services the handlers call.
 */
export const legacyPlugin = fp(
  async (app) => {
    const handlerOf = handlers();
    for (const [name, endpoint] of Object.entries(endpoints) as [EndpointName, Endpoint][]) {
      const handler = handlerOf[name] as AnyHandler;
      const info = endpoint.info === true;
      const recorded = isRecordedEndpoint(name, endpoint);

      const serve = async (request: FastifyRequest, reply: FastifyReply) => {
        const lang = request.lang;
        let user: SessionUser | null = null;
        let input: unknown;
        // Every state-changing call is recorded in the operation log, whatever its outcome. One that
        // may have changed who may do what has resolved sessions looked up afresh (see SessionCache).
        const record = recorded
          ? async (failure: unknown) => {
              if (endpoint.changesAccess) await app.auth.sessionsChanged();
              await recordCall(app, { name, endpoint, request, user, input, failure });
            }
          : null;
        try {
          const query = isRecord(request.query) ? request.query : {};
          const raw = request.method === 'GET' ? query : (request.body ?? {});
          // Parsed once: a failure is reported after the endpoint's own validation.
          const legacy = LegacyQuerySchema.safeParse(
            { area_id: (isRecord(raw) ? raw.area_id : undefined) ?? query.area_id },
            { reportInput: true },
          );
          if (endpoint.permission !== 'public') {
            // The session query also resolves the request's mine, so scoped calls skip a lookup.
            user = await app.auth.authenticate(readToken(request), legacy.data?.area_id);
            if (!user) throw new ApiError(Code.NOT_LOGGED_IN, 'api.notLoggedIn');
            if (!allows(user, endpoint.permission)) throw new ApiError(Code.FORBIDDEN, 'api.forbidden');
          }
          if (!isRecord(raw))
            throw new InvalidInput([
              {
                code: 'invalid_type',
                expected: 'object',
                path: [],
                message: 'rule.invalidType',
                input: raw,
              } as z.core.$ZodIssue,
            ]);
          const schema = endpoint.method === 'GET' ? endpoint.query : endpoint.body;
          // Legacy clients may send `area_id` in the query of a POST; device bodies require it.
          const fromQuery =
            schema !== undefined &&
            raw.area_id === undefined &&
            query.area_id !== undefined &&
            hasAreaId(schema);
          const candidate = fromQuery ? { ...raw, area_id: query.area_id } : raw;
          const nul = nulCharIssues(candidate);
          if (nul.length > 0) throw new InvalidInput(nul);
          input = schema ? parse(schema, candidate) : {};
          if (!legacy.success) throw new InvalidInput(legacy.error.issues);
          const data = await handler({
            app,
            input: input as never,
            user: user as never,
            areaId: legacy.data.area_id,
            lang,
            client: { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null },
          });
          if (record) await record(null);
          if (endpoint.download) return sendFile(reply, data as FileDownload);
          const msg = translate(lang, endpoint.success ?? 'api.ok');
          return sendEnvelope(reply, envelopeOf(Code.OK, msg, data, info));
        } catch (error) {
          if (record) await record(error);
          if (error instanceof InvalidInput)
            return sendEnvelope(reply, validationError(fieldErrors(error.issues, lang), lang));
          if (error instanceof ApiError) return sendEnvelope(reply, envelopeOfError(error, lang, info));
          request.log.error({ err: error, endpoint: name }, 'request failed');
          return sendEnvelope(
            reply,
            envelopeOf(Code.SERVER_ERROR, translate(lang, 'api.serverError'), null, info),
            500,
          );
        }
      };

      for (const url of [endpoint.path, `/api${endpoint.path}`]) {
        app.route({ method: endpoint.alsoGet ? ['GET', 'POST'] : endpoint.method, url, handler: serve });
      }
    }
  },
  { name: 'legacy-http', dependencies: ['auth', 'modules', 'lang'] },
);
