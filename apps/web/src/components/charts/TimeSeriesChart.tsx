import { timeZoneOffsetMinutes } from '@fbox/contracts';
import Empty from 'antd/es/empty';
import Skeleton from 'antd/es/skeleton';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../../lib/store';
import { formatTime, timeZoneStore } from '../../lib/time';
import styles from './TimeSeriesChart.module.css';

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
  height?: number;
  testId?: string;
  /** Fills the area under a single line. */
  area?: boolean;
}

type EChartsModule = typeof import('./echarts');
type Chart = ReturnType<EChartsModule['echarts']['init']>;

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
}: TimeSeriesChartProps) => {
  const { t } = useTranslation();
  const zone = useStore(timeZoneStore);
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const [ready, setReady] = useState(false);
  const empty = series.every((line) => line.points.every(([, value]) => value === null));

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | undefined;
    void import('./echarts').then(({ echarts }) => {
      if (disposed || !host.current) return;
      chart.current = echarts.init(host.current);
      if (typeof ResizeObserver !== 'undefined') {
        observer = new ResizeObserver(() => chart.current?.resize());
        observer.observe(host.current);
      }
      setReady(true);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (!ready || !chart.current) return;
    const shift = zone === null ? 0 : timeZoneOffsetMinutes(zone) * 60_000;
    chart.current.setOption(
      {
        useUTC: zone !== null,
        animation: false,
        grid: { left: 16, right: 24, top: 36, bottom: 24, containLabel: true },
        legend: { show: series.length > 1, top: 0 },
        tooltip: {
          trigger: 'axis',
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
        xAxis: { type: 'time' },
        yAxis: { type: 'value', axisLabel: { formatter: (value: number) => format(value) } },
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
  }, [ready, series, format, zone, area]);

  return (
    <div className={styles.wrap} style={{ height }} data-testid={testId}>
      <div ref={host} className={styles.canvas} aria-hidden={empty} />
      {(loading || !ready) && (
        <div className={styles.overlay}>
          <Skeleton active paragraph={{ rows: 5 }} title={false} />
        </div>
      )}
      {!loading && ready && empty && (
        <div className={styles.overlay}>
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.chart.empty')} />
        </div>
      )}
    </div>
  );
};
