declare module 'virtual:endpoint-routes' {
  import type { EndpointName, EndpointRoute, Endpoints } from '@fbox/contracts';

  /** Each endpoint's route (build/endpoint-routes.ts), typed by its own entry of the table. */
  export const routes: {
    [N in EndpointName]: Omit<Endpoints[N], 'query' | 'body' | 'data' | 'success'> & EndpointRoute;
  };
}
