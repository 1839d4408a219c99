// The console's page routes, read from the features' route tables
// (`path: '…', … page: () => import('./X')`), with the page module each one loads.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const features = fileURLToPath(new URL('../../apps/web/src/features/', import.meta.url));

/** `[{ path, module }]`, `module` relative to apps/web (`src/features/device/MinerListPage.tsx`). */
export const consoleRoutes = () => {
  const routes = [];
  for (const feature of readdirSync(features)) {
    let text;
    try {
      text = readFileSync(join(features, feature, 'routes.ts'), 'utf8');
    } catch {
      continue;
    }
    for (const match of text.matchAll(/path: '([^']+)',[\s\S]*?page: \(\) => import\('\.\/([^']+)'\)/g))
      routes.push({ path: match[1], module: `src/features/${feature}/${match[2]}.tsx` });
  }
  return routes;
};
