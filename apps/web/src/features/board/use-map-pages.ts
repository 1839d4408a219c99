import { type RefObject, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import {
  type MapFbox,
  type MapMetrics,
  type MapPage,
  mapMetrics,
  pageFboxes,
  pitchLimits,
} from './miner-layout';
import { layoutShape, type SiteFbox, type SiteMiner } from './site-map';

interface Size {
  width: number;
  height: number;
  /** The window's height, which sets text and the legible cell size. */
  screen: number;
}

/** The size of an element, followed as the window (or anything above) resizes it. */
export const useElementSize = (ref: RefObject<HTMLElement | null>): Size => {
  const [size, setSize] = useState<Size>(() => ({ width: 0, height: 0, screen: window.innerHeight }));
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      setSize((old) =>
        old.width === width && old.height === height && old.screen === window.innerHeight
          ? old
          : { width, height, screen: window.innerHeight },
      );
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, [ref]);
  return size;
};

/** Where nothing could be measured (no layout, as in tests): every FBOX on one page, mid-sized cells. */
const unmeasured = (fboxes: readonly MapFbox[]): MapPage[] => [
  { fboxIds: fboxes.map((f) => f.id), columns: Math.max(1, Math.min(4, fboxes.length)), pitch: 16 },
];

export interface MapPages {
  /** The element the map fills: its size is what the FBOXes must fit. */
  ref: RefObject<HTMLDivElement | null>;
  metrics: MapMetrics & { unit: number };
  width: number;
  page: MapPage;
  index: number;
  count: number;
}

/**
 * The site map's pages for the area it is given, and the one showing now: they turn every
 * `pageSeconds` when the FBOXes do not all fit legibly. Recomputed when the area or the map's
 * shape (FBOXes, tanks, miners per tank) changes, not on every reading.
 */
export const useMapPages = <M extends SiteMiner>(
  fboxes: readonly SiteFbox<M>[],
  pageSeconds: number,
): MapPages => {
  const ref = useRef<HTMLDivElement>(null);
  const size = useElementSize(ref);
  // The shape (as text) stands for the FBOXes: new readings of the same miners keep the pages.
  const shape = JSON.stringify(layoutShape(fboxes));
  const { metrics, pages } = useMemo(() => {
    const shaped: MapFbox[] = JSON.parse(shape);
    const metrics = mapMetrics(size.screen);
    const measured = size.width > 0 && size.height > 0;
    const pages = measured ? pageFboxes(shaped, size, metrics, pitchLimits(size.screen)) : unmeasured(shaped);
    return { metrics, pages };
  }, [shape, size]);
  const [index, setIndex] = useState(0);
  useEffect(() => {
    setIndex(0);
    if (pages.length <= 1) return;
    const timer = window.setInterval(
      () => setIndex((shown) => (shown + 1) % pages.length),
      Math.max(1, pageSeconds) * 1000,
    );
    return () => window.clearInterval(timer);
  }, [pages, pageSeconds]);
  const shown = index % pages.length;
  return { ref, metrics, width: size.width, page: pages[shown]!, index: shown, count: pages.length };
};
