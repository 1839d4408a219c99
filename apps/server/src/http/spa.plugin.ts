import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { Code, translate } from '@fbox/contracts';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { envelopeOf, sendEnvelope } from './envelope.js';
import { isApiPath } from './paths.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Browsers navigating ask for HTML; scripts and images ask for `*\/*` but have a file extension. */
const wantsPage = (request: FastifyRequest): boolean => {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  if (isApiPath(path) || path.startsWith('/assets/') || path.startsWith('/docs')) return false;
  const accept = request.headers.accept ?? '*/*';
  if (accept.includes('text/html')) return true;
  return accept.includes('*/*') && !/\.[a-z0-9]+$/i.test(path);
};

const NOT_BUILT =
  'FBOX Cloud server is running, but the web console has not been built.\n' +
  'Build it with `npm run build` at the repository root (or set WEB_DIST to a built copy), then reload.\n' +
  'The API answers under /index/… and /api/…; its reference is at /docs.\n';

/**
 * Serves the built SPA: hashed `/assets/*` cached for a year, `index.html` never cached, each in
 * its precompressed brotli or gzip copy where the browser accepts one, and any
 * other page path answered with `index.html` (history-mode routing). Unknown API paths are a real
 * 404 with an envelope.
 */
export const spaPlugin = fp<{ webDist: string }>(
  async (app, { webDist }) => {
    const built = existsSync(join(webDist, 'index.html'));
    if (built) {
      await app.register(fastifyStatic, {
        root: webDist,
        index: false,
        wildcard: true,
        // The build writes brotli and gzip copies of its text files (apps/web/build/precompress.ts):
        // sent to browsers that accept them; nothing is compressed per request.
        preCompressed: true,
        // Our own Cache-Control per path below; the plugin's default would overwrite it.
        cacheControl: false,
        setHeaders: (res, filePath) => {
          const relative = filePath.slice(webDist.length).replaceAll('\\', '/');
          res.setHeader('Cache-Control', relative.startsWith('/assets/') ? IMMUTABLE : 'no-cache');
          // A cache between must not give a brotli copy to a browser that did not ask for one.
          res.setHeader('Vary', 'Accept-Encoding');
        },
      });
      // The directory itself is not listable (403); the root is a page like any other.
      app.get('/', (_request, reply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html'));
    } else {
      app.log.warn({ webDist }, 'web console not built: pages answer with a short explanation');
    }

    app.setNotFoundHandler((request, reply) => {
      if (wantsPage(request)) {
        if (!built) return reply.code(200).type('text/plain; charset=utf-8').send(NOT_BUILT);
        return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
      }
      const body = envelopeOf(Code.NOT_FOUND, translate(request.lang ?? 'en', 'api.routeNotFound'));
      return sendEnvelope(reply, body, 404);
    });
  },
  { name: 'spa', dependencies: ['lang'] },
);
