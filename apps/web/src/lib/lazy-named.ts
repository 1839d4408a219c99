import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

// React.lazy's own bound: a component of any props.
// biome-ignore lint/suspicious/noExplicitAny: props are the component's own, kept by M[K]
type AnyComponent = ComponentType<any>;

/**
 * `React.lazy` for a named export: the module is fetched when the component first renders.
 * `lazyNamed(() => import('./SettingsDrawer'), 'SettingsDrawer')`.
 */
export const lazyNamed = <M extends { [name in K]: AnyComponent }, K extends keyof M>(
  load: () => Promise<M>,
  name: K,
): LazyExoticComponent<M[K]> => lazy(() => load().then((module) => ({ default: module[name] })));
