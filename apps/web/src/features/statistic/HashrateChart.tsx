import { formatHashrate, timeZoneOffsetMinutes } from '@fbox/contracts';
import { useEffect } from 'react';
import { useEChart } from '../../components/charts/use-echart';
import { useStore } from '../../lib/store';
import { formatTime, timeZoneStore } from '../../lib/time';

export interface HashrateChartProps {
  /** One area per series (stacked unless `stacked` is false), points `[bucket start, TH/s]`. */
  series: { name: string; points: [number, number | null][] }[];
  theoretical: { name: string; points: [number, number | null][] };
  stacked: boolean;
  height?: number;
}

/** Hashrate per series as stacked areas (lines when the series overlap) against the theoretical line. */
export const HashrateChart = ({ series, theoretical, stacked, height = 320 }: HashrateChartProps) => {
  const zone = useStore(timeZoneStore);
  const { host, chart } = useEChart();

  useEffect(() => {
    if (!chart) return;
    const shift = zone === null ? 0 : timeZoneOffsetMinutes(zone) * 60_000;
    const shifted = (points: [number, number | null][]) => points.map(([ts, v]) => [ts + shift, v]);
    chart.setOption(
      {
        useUTC: zone !== null,
        animation: false,
        grid: { left: 16, right: 24, top: 48, bottom: 24, containLabel: true },
        legend: { top: 0, type: 'scroll' },
        tooltip: {
          trigger: 'axis',
          formatter: (params: unknown) => {
            const rows = params as { value: [number, number | null]; seriesName: string; marker: string }[];
            const first = rows[0];
            if (!first) return '';
            return [
              formatTime(first.value[0] - shift, zone),
              ...rows.map((r) => `${r.marker}${r.seriesName}: ${formatHashrate(r.value[1])}`),
            ].join('<br/>');
          },
        },
        xAxis: { type: 'time' },
        yAxis: { type: 'value', axisLabel: { formatter: (v: number) => formatHashrate(v, 1) } },
        series: [
          ...series.map((s) => ({
            type: 'line',
            name: s.name,
            stack: stacked ? 'hashrate' : undefined,
            areaStyle: stacked ? { opacity: 0.35 } : undefined,
            showSymbol: s.points.length < 3,
            data: shifted(s.points),
          })),
          {
            type: 'line',
            name: theoretical.name,
            lineStyle: { type: 'dashed', width: 2 },
            color: '#8c8c8c',
            showSymbol: theoretical.points.length < 3,
            data: shifted(theoretical.points),
          },
        ],
      },
      { notMerge: true },
    );
  }, [chart, series, theoretical, stacked, zone]);

  return <div ref={host} style={{ height, width: '100%' }} data-testid="hashrate-chart" />;
};
