declare module 'virtual:endpoint-routes' {
  import type { EndpointName, EndpointRoute, Endpoints } from '@fbox/contracts';

  /**
   * Each endpoint's route (build/endpoint-routes.ts), typed by its own entry of the table (its
   * exact method and path) and as any route (the flags it may lack, such as `mutates`).
   */
  export const routes: { [N in EndpointName]: EndpointRoute<Endpoints[N]> & EndpointRoute };
}
