import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/** Text files worth compressing; images and fonts are compressed already. */
const compressible = /\.(?:js|mjs|css|html|svg|json|txt|map)$/;
/** Smaller files gain nothing from a second request-less encoding (the server sends them as they are). */
const minBytes = 1024;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every text file
 * of the build, once, at build time: the server sends the one the browser accepts
 * (`@fastify/static` `preCompressed`) without compressing anything per request. A compressed copy
 * that is not smaller than the file is not written.
 */
export const precompress = (): Plugin => {
  let outDir = 'dist';
  return {
    name: 'fbox-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = join(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const file of filesUnder(outDir)) {
        if (!compressible.test(file) || statSync(file).size < minBytes) continue;
        const raw = readFileSync(file);
        const brotli = brotliCompressSync(raw, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 11,
            [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
          },
        });
        const gzip = gzipSync(raw, { level: 9 });
        if (brotli.length < raw.length) writeFileSync(`${file}.br`, brotli);
        if (gzip.length < raw.length) writeFileSync(`${file}.gz`, gzip);
      }
    },
  };
};
