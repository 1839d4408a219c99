import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('.', import.meta.url));

/** Non-test TypeScript files under a folder of src, as paths relative to src. */
const sources = (folder: string): string[] =>
  readdirSync(join(src, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => relative(src, join(src, folder, f)));

/** The module specifiers a file imports or re-exports (static imports, type-only included). */
const importsOf = (file: string): string[] =>
  [...readFileSync(join(src, file), 'utf8').matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'([^']+)'/gm)].map(
    (m) => m[1] as string,
  );

/** Files of `folder` importing a specifier that `bad` matches, with what they import. */
const offenders = (folder: string, bad: (specifier: string) => boolean): string[] =>
  sources(folder).flatMap((file) =>
    importsOf(file)
      .filter(bad)
      .map((specifier) => `${file} imports ${specifier}`),
  );

/** A migration module: the core's `db/migration-*.ts`, a feature's `<feature>.migration.ts`. */
const isMigration = (specifier: string) => /(^|\/)migration-|\.migration\.js$/.test(specifier);

describe('layers point one way (docs/architecture.md)', () => {
  it('modules never import from the HTTP adapter', () => {
    expect(offenders('modules', (s) => /(^|\/)http\//.test(s))).toEqual([]);
  });

  it('no runtime code imports a migration, but a feature declaring its own', () => {
    const runtime = ['devices', 'http', 'ingest', 'jobs', 'lib', 'modules', 'mqtt', 'realtime', 'secrets'];
    // Migrations themselves share the core's helpers.
    const found = runtime
      .flatMap((folder) => offenders(folder, isMigration))
      .filter((line) => !/^\S+\.migration\.ts imports /.test(line));
    expect(
      found.filter(
        (line) => !/^modules\/[^/]+\/[^/]+\.feature\.ts imports \.\/[^/]+\.migration\.js$/.test(line),
      ),
    ).toEqual([]);
  });

  it('every feature folder declares its feature, listed once in modules/features.ts', () => {
    const folders = readdirSync(join(src, 'modules'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    const listed = importsOf('modules/features.ts').filter((s) => s.endsWith('.feature.js'));
    expect(listed.sort()).toEqual(folders.map((f) => `./${f}/${f}.feature.js`).sort());
  });

  it('the device core and the library never import the HTTP adapter or the modules', () => {
    for (const folder of ['devices', 'lib'])
      expect(offenders(folder, (s) => /^\.\.\/(http|modules)\//.test(s))).toEqual([]);
  });

  it('services, engines, routes and exports build no queries: storage is behind repositories', () => {
    const building = ['devices', 'modules'].flatMap((folder) =>
      sources(folder)
        .filter((file) => /\.(service|engine|routes|export|csv)\.ts$/.test(file))
        .filter((file) =>
          /\.(selectFrom|insertInto|updateTable|deleteFrom)\(/.test(readFileSync(join(src, file), 'utf8')),
        ),
    );
    expect(building).toEqual([]);
  });

  it('ingest, jobs and mqtt build no queries: storage is behind repositories', () => {
    expect(['ingest', 'jobs', 'mqtt'].flatMap((folder) => offenders(folder, (s) => s === 'kysely'))).toEqual(
      [],
    );
  });
});
