import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { useListQuery } from './use-list-query';

const setup = (initial: string) => {
  let location = '';
  const { result } = renderHook(
    () => {
      const loc = useLocation();
      location = `${loc.pathname}${loc.search}`;
      return useListQuery({ filterKeys: ['status', 'keyword'] });
    },
    {
      wrapper: ({ children }: { children: ReactNode }) => {
        const router = createMemoryRouter([{ path: '*', element: children }], { initialEntries: [initial] });
        return <RouterProvider router={router} />;
      },
    },
  );
  return { result, location: () => location };
};

describe('useListQuery', () => {
  it('reads the list query from the URL', () => {
    const { result } = setup('/device/machineList?page=3&sort=-ip&status=online');
    expect(result.current.query).toEqual({ page: 3, limit: 20, sort: '-ip', filters: { status: 'online' } });
  });

  it('a new filter goes back to page 1 in the URL; paging keeps the filters', () => {
    const { result, location } = setup('/device/machineList?page=3&status=online&id=1');
    act(() => result.current.setFilters({ keyword: 'S19' }));
    expect(location()).toBe('/device/machineList?id=1&status=online&keyword=S19');
    act(() => result.current.update({ page: 2 }));
    expect(location()).toBe('/device/machineList?id=1&page=2&status=online&keyword=S19');
    expect(result.current.query.page).toBe(2);
  });
});
