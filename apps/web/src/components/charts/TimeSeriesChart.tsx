import { timeZoneOffsetMinutes } from '@fbox/contracts';
import { useEffect } from 'react';
import { useStore } from '../../lib/store';
import { formatTime, timeZoneStore } from '../../lib/time';
import { ChartFrame } from './ChartFrame';
import { useEChart } from './use-echart';

/** One line: points as `[epoch ms, value]`, null where the bucket has no reading. */
export interface ChartSeries {
  name: string;
  points: readonly (readonly [number, number | null])[];
  color?: string;
}

export interface TimeSeriesChartProps {
  series: ChartSeries[];
  /** Formats a value for the axis and the tooltip (with its unit). */
  format: (value: number) => string;
  loading?: boolean;
  /** Pixels, or a CSS length (`100%` to fill a sized box). */
  height?: number | string;
  testId?: string;
  /** Fills the area under a single line. */
  area?: boolean;
  /** Colours for a dark page. */
  theme?: 'light' | 'dark';
  /** Text size of axes, legend and tooltip in px (a wall display reads from afar); echarts' own by default. */
  fontSize?: number;
}

/**
 * A responsive ECharts line chart over time. Times read in the user's zone (top bar): instants are
 * shifted by the zone's offset and drawn in UTC, so ticks fall on the user's hours, not the browser's.
 */
export const TimeSeriesChart = ({
  series,
  format,
  loading,
  height = 280,
  testId,
  area,
  theme,
  fontSize,
}: TimeSeriesChartProps) => {
  const zone = useStore(timeZoneStore);
  const { host, chart } = useEChart(theme === 'dark' ? 'dark' : undefined);
  const ready = chart !== null;
  const empty = series.every((line) => line.points.every(([, value]) => value === null));

  useEffect(() => {
    if (!chart) return;
    const shift = zone === null ? 0 : timeZoneOffsetMinutes(zone) * 60_000;
    const text = fontSize ? { fontSize } : {};
    chart.setOption(
      {
        useUTC: zone !== null,
        animation: false,
        // The page's own background shows through (the dark theme would paint its own).
        backgroundColor: 'transparent',
        grid: { left: 16, right: 24, top: 36, bottom: 24, containLabel: true },
        legend: { show: series.length > 1, top: 0, textStyle: text },
        tooltip: {
          trigger: 'axis',
          textStyle: text,
          formatter: (params: unknown) => {
            const rows = params as { value: [number, number | null]; seriesName: string; marker: string }[];
            const first = rows[0];
            if (!first) return '';
            const head = formatTime(first.value[0] - shift, zone);
            const lines = rows.map(
              (row) =>
                `${row.marker}${row.seriesName}: ${row.value[1] === null ? '-' : format(row.value[1])}`,
            );
            return [head, ...lines].join('<br/>');
          },
        },
        xAxis: { type: 'time', axisLabel: text },
        yAxis: { type: 'value', axisLabel: { ...text, formatter: (value: number) => format(value) } },
        series: series.map((line) => ({
          type: 'line',
          name: line.name,
          // Few readings (a fresh mine): show the dots, a line needs two points to be seen.
          showSymbol: line.points.filter(([, value]) => value !== null).length < 3,
          connectNulls: false,
          color: line.color,
          areaStyle: area && series.length === 1 ? { opacity: 0.15 } : undefined,
          data: line.points.map(([ts, value]) => [ts + shift, value]),
        })),
      },
      { notMerge: true },
    );
  }, [chart, series, format, zone, area, fontSize]);

  return (
    <ChartFrame host={host} ready={ready} loading={loading} empty={empty} height={height} testId={testId} />
  );
};
