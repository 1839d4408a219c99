import { fileURLToPath } from 'node:url';
import type { Plugin, Rolldown } from 'vite';
import { barePaths } from '../src/app/bare-paths';

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));

/** What every page after sign-in loads after the entry: antd's provider and the layout. */
const consoleRoots = [src('app/AntdProvider.tsx'), src('app/ProtectedShell.tsx')];
/** The texts, one chunk per language and part (lib/i18n.ts): every page's, then the pages'. */
const coreTexts = { en: src('locales/bundle-en.ts'), zh: src('locales/bundle-zh.ts') };
const consoleTexts = { en: src('locales/bundle-console-en.ts'), zh: src('locales/bundle-console-zh.ts') };

/** The file the server reads (apps/server/src/http/spa.plugin.ts), beside Vite's manifest. */
const consolePreloadFile = '.vite/console-preload.json';

/** A file to fetch, as a path under the site's root. */
interface PreloadFile {
  path: string;
  as: 'script' | 'style';
}

/** Per language, in the order the browser should ask for them; and the pages that need none. */
type ConsolePreload = Record<keyof typeof consoleTexts, PreloadFile[]> & {
  barePaths: readonly string[];
};

/**
 * Lists the files a page after sign-in loads before it renders, so the server can name them in the
 * page's `Link` header and the browser fetches them all at once. Without it the layout's files were
 * asked for only once the entry had run (on a cold load of the miner list at 280 ms, the entry at
 * 95 ms). The entry's own files come first, in the page's order: the browser asks for the header's
 * files before the page's, over at most six connections, and the entry is needed first.
 */
export const consolePreload = (): Plugin => ({
  name: 'fbox-console-preload',
  apply: 'build',
  generateBundle(_options, bundle) {
    const chunks = Object.values(bundle).filter((c): c is Rolldown.OutputChunk => c.type === 'chunk');
    const byFile = new Map(chunks.map((c) => [c.fileName, c]));
    /** The chunks `roots` load, each before those it imports (as the page names them). */
    const closure = (roots: Rolldown.OutputChunk[], into = new Set<Rolldown.OutputChunk>()) => {
      for (const root of roots) {
        if (into.has(root)) continue;
        into.add(root);
        closure(
          root.imports.flatMap((file) => byFile.get(file) ?? []),
          into,
        );
      }
      return into;
    };
    const facade = (id: string) => {
      const chunk = chunks.find((c) => c.facadeModuleId === id);
      if (!chunk) throw new Error(`console preload: no chunk starts at ${id}`);
      return chunk;
    };
    const entry = chunks.filter((c) => c.isEntry);
    const filesOf = (roots: Rolldown.OutputChunk[]): PreloadFile[] => {
      const loaded = [...closure(roots)];
      const styles = new Set(loaded.flatMap((c) => [...(c.viteMetadata?.importedCss ?? [])]));
      return [
        ...[...styles].map((file) => ({ path: `/${file}`, as: 'style' as const })),
        ...loaded.map((c) => ({ path: `/${c.fileName}`, as: 'script' as const })),
      ];
    };
    /** Each file once, where it is first needed. */
    const forLanguage = (language: keyof typeof consoleTexts) => {
      const files = [
        entry,
        [facade(coreTexts[language])],
        consoleRoots.map(facade),
        [facade(consoleTexts[language])],
      ].flatMap(filesOf);
      return [...new Map(files.map((file) => [file.path, file])).values()];
    };
    const preload: ConsolePreload = { en: forLanguage('en'), zh: forLanguage('zh'), barePaths };
    this.emitFile({ type: 'asset', fileName: consolePreloadFile, source: JSON.stringify(preload, null, 2) });
  },
});
