import { type Language, limits, parseLanguage } from '@fbox/contracts';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
  }
}

/** The caller's language: `lang` header (en-us / zh-cn), else the `lang` or `language` cookie, else English. */
export const langPlugin = fp(
  async (app) => {
    app.decorateRequest('lang', 'en');
    app.addHook('onRequest', async (request) => {
      const header = request.headers.lang;
      const cookie = request.cookies?.lang ?? request.cookies?.[limits.languageCookie];
      request.lang = parseLanguage(typeof header === 'string' && header ? header : cookie);
    });
  },
  { name: 'lang' },
);
