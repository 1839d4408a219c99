import type { z } from 'zod';
import type { Permission } from './access.js';
import type { SharedMessageKey } from './messages.js';

/** One endpoint described as data: the server registers routes from it, the web calls through it. */
export interface Endpoint<
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  D extends z.ZodType = z.ZodType,
> {
  method: 'GET' | 'POST';
  /**
   * A POST call the spec lists under GET: also served on GET, its input (the body's fields) read
   * from the query string.
   */
  alsoGet?: true;
  /** Path without the `/api` alias prefix. */
  path: string;
  permission: Permission;
  query?: Q;
  body?: B;
  data: D;
  /** Info-style call: the envelope also carries `info`, and the web shows failures as a 2 s toast. */
  info?: boolean;
  /** The call changes state (recorded by the operation log). */
  mutates?: boolean;
  /** The envelope's `msg` on success, when not the default `api.ok`. */
  success?: SharedMessageKey;
  /**
   * The call may change a session, an account, its role or rules, or which mines it reaches: every
   * process forgets the sessions it resolved (the server's session cache). Other calls keep them.
   */
  changesAccess?: true;
  /**
   * The call answers a file download (CSV) instead of the envelope on success; failures still
   * answer the JSON envelope. `data` then describes the file's text.
   */
  download?: boolean;
}

/** Keeps each endpoint's exact shape, so an endpoint without a body has no `body` in its type. */
export const endpoint = <const E extends Endpoint>(e: E): E => e;

/** What a caller needs of an endpoint to call it: the endpoint without its schemas. */
export type EndpointRoute<E extends Endpoint = Endpoint> = Omit<E, 'query' | 'body' | 'data' | 'success'>;

/**
 * The endpoint as a route (the web's table, apps/web/build/endpoint-routes.ts): the schemas, which
 * only the server checks, are left out, and with them the cost of building them in a browser.
 */
export const routeOf = ({ query, body, data, success, ...route }: Endpoint): EndpointRoute => route;
