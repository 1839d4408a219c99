import { useSearchParams } from 'react-router';

/** The `?id=` of a detail page; 0 when missing or not a positive integer. */
export const useIdParam = (): number => {
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  return Number.isInteger(id) && id > 0 ? id : 0;
};

/** The detail route of an FBOX: hydro boxes have their own page. */
export const fboxDetailPath = (fbox: { id: number; kind: string }) =>
  `${fbox.kind === 'hydro' ? '/device/boxDetailHydro' : '/device/boxDetail'}?id=${fbox.id}`;
export const tankDetailPath = (id: number) => `/device/deviceDetail?id=${id}`;
export const minerDetailPath = (id: number) => `/device/machineDetail?id=${id}`;
