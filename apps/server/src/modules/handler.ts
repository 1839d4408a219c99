import type { Readable } from 'node:stream';
import type {
  EndpointBodyOutput,
  EndpointName,
  EndpointQueryOutput,
  Endpoints,
  Language,
} from '@fbox/contracts';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { WithJsonText } from '../lib/json-text.js';
import type { ClientInfo, SessionUser } from './auth/auth.service.js';

/** The validated input of an endpoint: its body for POST, its query for GET, else nothing. */
export type EndpointInput<N extends EndpointName> = [EndpointBodyOutput<N>] extends [never]
  ? [EndpointQueryOutput<N>] extends [never]
    ? Record<string, never>
    : EndpointQueryOutput<N>
  : EndpointBodyOutput<N>;

/** What a handler gets: the app (for its services), the caller and the request's context. */
export interface HandlerContext<N extends EndpointName> {
  app: FastifyInstance;
  input: EndpointInput<N>;
  user: Endpoints[N]['permission'] extends 'public' ? null : SessionUser;
  /** `area_id` from the query or the body, when given. */
  areaId: number | undefined;
  lang: Language;
  client: ClientInfo;
}

/** What a `download` endpoint's handler answers: the file, sent as an attachment. */
export interface FileDownload {
  filename: string;
  contentType: string;
  body: string | Readable;
}

export type Handler<N extends EndpointName> = (
  ctx: HandlerContext<N>,
) => Promise<
  Endpoints[N] extends { download: true } ? FileDownload : WithJsonText<z.input<Endpoints[N]['data']>>
>;

/** One handler per endpoint: a missing one fails the typecheck. */
export type HandlerMap = { [N in EndpointName]: Handler<N> };

/** Handlers of one module. */
export type HandlersFor<N extends EndpointName> = { [K in N]: Handler<K> };
