import { enConsole } from './en-console';
import { enCore } from './en-core';

/**
 * English texts of the web console: those needed before sign-in (en-core.ts, loaded at start) and
 * the pages' (en-console.ts, loaded with the first page after it). Keys are `feature.area.phrase`;
 * texts shared with the server (`api.*`, `field.*`, `rule.*`, `alertLevel.*`) come from the
 * contracts and are merged in locales/bundle-*.ts. This union types `t()` and serves tests; the
 * app loads the two parts (lib/i18n.ts).
 */
export const en = { ...enCore, ...enConsole } as const;
