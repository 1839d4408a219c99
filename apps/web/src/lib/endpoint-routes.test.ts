import { routes } from 'virtual:endpoint-routes';
import { type Endpoint, endpoints, routeOf } from '@fbox/contracts';
import { describe, expect, it } from 'vitest';

describe('the endpoint routes (build/endpoint-routes.ts)', () => {
  it('name every endpoint of the contracts with its method, path, permission and flags', () => {
    expect(Object.keys(routes).sort()).toEqual(Object.keys(endpoints).sort());
    for (const [name, endpoint] of Object.entries(endpoints) as [keyof typeof routes, Endpoint][]) {
      expect(routes[name]).toStrictEqual(JSON.parse(JSON.stringify(routeOf(endpoint))));
      expect(routes[name]).toMatchObject({ method: endpoint.method, path: endpoint.path });
    }
    expect(routes.fboxCreate).toMatchObject({ mutates: true });
    expect(routes.minerExport).toMatchObject({ download: true });
  });

  it('carry no schema, which only the server checks', () => {
    for (const route of Object.values(routes))
      for (const key of ['query', 'body', 'data', 'success']) expect(route).not.toHaveProperty(key);
  });
});
