import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import { Code, detectLanguage, type Language, limits, translate } from '@fbox/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
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

/** The build's list of what a page after sign-in fetches before it renders (apps/web/build/console-preload.ts). */
type ConsolePreload = Record<Language, { path: string; as: 'script' | 'style' }[]> & {
  /** Pages outside the layout (sign-in, errors, boards): they load none of it. */
  barePaths: string[];
};

/**
 * The `Link` header of a console page, per language: the browser fetches the layout's files with the
 * entry's own instead of once the entry has run. Nothing when the build has no list.
 */
const preloadLinks = (
  webDist: string,
): { header: Record<Language, string>; bare: Set<string> } | undefined => {
  const file = join(webDist, '.vite', 'console-preload.json');
  if (!existsSync(file)) return undefined;
  const list = JSON.parse(readFileSync(file, 'utf8')) as ConsolePreload;
  const links = (language: Language) =>
    list[language]
      .map(
        ({ path, as }) =>
          `<${path}>; ${as === 'script' ? 'rel=modulepreload' : 'rel=preload; as=style; crossorigin'}`,
      )
      .join(', ');
  return { header: { en: links('en'), zh: links('zh') }, bare: new Set(list.barePaths) };
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
    const links = built ? preloadLinks(webDist) : undefined;
    /** `index.html`; a signed-in visitor's console page also names the layout's files to fetch. */
    const sendPage = (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('Cache-Control', 'no-cache');
      const path = request.url.split('?')[0] ?? '/';
      if (links && !links.bare.has(path) && request.cookies?.[limits.tokenCookie])
        reply.header(
          'Link',
          links.header[
            detectLanguage(request.cookies?.[limits.languageCookie], request.headers['accept-language'])
          ],
        );
      return reply.sendFile('index.html');
    };
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
      app.get('/', sendPage);
    } else {
      app.log.warn({ webDist }, 'web console not built: pages answer with a short explanation');
    }

    app.setNotFoundHandler((request, reply) => {
      if (wantsPage(request)) {
        if (!built) return reply.code(200).type('text/plain; charset=utf-8').send(NOT_BUILT);
        return sendPage(request, reply);
      }
      const body = envelopeOf(Code.NOT_FOUND, translate(request.lang ?? 'en', 'api.routeNotFound'));
      return sendEnvelope(reply, body, 404);
    });
  },
  { name: 'spa', dependencies: ['lang'] },
);
