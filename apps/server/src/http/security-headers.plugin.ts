import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { isApiPath } from './paths.js';

/**
 * The response headers helmet sets for these options. They depend on the options only, so they are
 * worked out once: @fastify/helmet built the helmet middleware anew on every request (parsing the
 * CSP directives each time), a visible share of a list page's CPU.
 */
export const securityHeaders = (options: HelmetOptions): [string, string][] => {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => headers.set(name.toLowerCase(), value),
    removeHeader: (name: string) => headers.delete(name.toLowerCase()),
  };
  helmet(options)({} as never, response as never, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
};

/**
 * Sets the security headers of DESIGN §9 on every answer (pages, API answers, errors, 404s), and
 * `Cache-Control: no-store` on API answers (both families, downloads and errors too): they carry
 * tokens, secrets and account data that no browser cache or proxy should keep (ASVS 8.2.1). Pages
 * and assets keep their own caching (see spa.plugin).
 */
export const securityHeadersPlugin = fp(
  async (app, options: HelmetOptions) => {
    const headers = securityHeaders(options);
    app.addHook('onRequest', (request, reply, done) => {
      const raw = reply.raw;
      for (const [name, value] of headers) raw.setHeader(name, value);
      if (isApiPath(request.url)) raw.setHeader('cache-control', 'no-store');
      done();
    });
  },
  { name: 'security-headers' },
);
