import { useEffect, useRef, useState } from 'react';

type EChartsModule = typeof import('./echarts');
/** A chart instance (echarts is loaded on first use, in its own chunk). */
export type Chart = ReturnType<EChartsModule['echarts']['init']>;

/** Whether this browser can draw on a canvas (jsdom in the web tests cannot: no chart there). */
export const canvasAvailable = (): boolean => {
  try {
    return Boolean(document.createElement('canvas').getContext('2d'));
  } catch {
    return false;
  }
};

/**
 * An echarts instance on the element `host` refers to: loaded and created after mount, resized
 * with its element, disposed on unmount. `chart` is null until then: set options when it is there.
 * `theme` names a built-in echarts theme (`dark` for a dark page); a new one recreates the chart.
 */
export const useEChart = (theme?: 'dark') => {
  const host = useRef<HTMLDivElement>(null);
  const [chart, setChart] = useState<Chart | null>(null);
  useEffect(() => {
    let disposed = false;
    let created: Chart | undefined;
    let observer: ResizeObserver | undefined;
    void import('./echarts').then(({ echarts }) => {
      if (disposed || !host.current || !canvasAvailable()) return;
      const instance = echarts.init(host.current, theme);
      created = instance;
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => instance.resize());
        observer.observe(host.current);
      }
      setChart(instance);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      created?.dispose();
      setChart(null);
    };
  }, [theme]);
  return { host, chart };
};
