// Tests render texts: load the initial language before any test runs, as main.tsx does before rendering.
import { i18nReady } from './lib/i18n';

await i18nReady;
