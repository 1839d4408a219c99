import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { useEChart } from '../../components/charts/use-echart';

export interface EnergyBars {
  /** Period labels (the x axis). */
  labels: string[];
  /** One stack part per FBOX (or one for a single box): kWh per label, null when not metered. */
  stacks: { name: string; values: (number | null)[] }[];
  cost: (number | null)[];
  /** Meter resets per label: a marker says the bucket was counted from 0. */
  resets: number[];
}

/**
 * Energy per period as bars (stacked by FBOX), its cost as a line on a second axis, and a marker
 * over each period with a meter reset ("meter reset — counted from 0"), so a reset never reads as
 * a drop or a spike.
 */
export const EnergyBarChart = ({
  data,
  formatEnergy,
  formatCost,
  loading,
  height = 320,
}: {
  data: EnergyBars;
  formatEnergy: (kwh: number) => string;
  formatCost: (cost: number) => string;
  loading?: boolean;
  height?: number;
}) => {
  const { t } = useTranslation();
  const { host, chart } = useEChart();
  const ready = chart !== null;
  const empty = data.labels.length === 0;

  useEffect(() => {
    if (!chart) return;
    const resetNote = t('power.chart.resetNote');
    const totals = data.labels.map((_, i) => data.stacks.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
    const costName = t('power.kpi.cost');
    chart.setOption(
      {
        animation: false,
        grid: { left: 16, right: 24, top: 48, bottom: 24, containLabel: true },
        legend: { top: 0, type: 'scroll' },
        tooltip: {
          trigger: 'axis',
          axisPointer: { type: 'shadow' },
          formatter: (params: unknown) => {
            const rows = params as {
              dataIndex: number;
              seriesName: string;
              marker: string;
              value: number | null;
            }[];
            const first = rows[0];
            if (!first) return '';
            const i = first.dataIndex;
            const lines = rows.map(
              (row) =>
                `${row.marker}${row.seriesName}: ${
                  row.value === null || row.value === undefined
                    ? '-'
                    : row.seriesName === costName
                      ? formatCost(row.value)
                      : formatEnergy(row.value)
                }`,
            );
            const note = (data.resets[i] ?? 0) > 0 ? [`⚠ ${resetNote}`] : [];
            return [data.labels[i], ...lines, ...note].join('<br/>');
          },
        },
        xAxis: { type: 'category', data: data.labels },
        yAxis: [
          { type: 'value', axisLabel: { formatter: (v: number) => formatEnergy(v) } },
          {
            type: 'value',
            axisLabel: { formatter: (v: number) => formatCost(v) },
            splitLine: { show: false },
          },
        ],
        series: [
          ...data.stacks.map((s, index) => ({
            type: 'bar',
            name: s.name,
            stack: 'energy',
            barMaxWidth: 48,
            data: s.values,
            // The top of each stack carries the reset markers.
            markPoint:
              index === data.stacks.length - 1
                ? {
                    symbol: 'pin',
                    symbolSize: 36,
                    label: { formatter: '↺' },
                    data: data.resets.flatMap((count, i) =>
                      count > 0 ? [{ name: resetNote, coord: [i, totals[i] ?? 0], value: count }] : [],
                    ),
                  }
                : undefined,
          })),
          {
            type: 'line',
            name: costName,
            yAxisIndex: 1,
            data: data.cost,
            showSymbol: data.labels.length < 40,
          },
        ],
      },
      { notMerge: true },
    );
  }, [chart, data, formatEnergy, formatCost, t]);

  return (
    <ChartFrame
      host={host}
      ready={ready}
      loading={loading}
      empty={empty}
      height={height}
      testId="power-energy-chart"
    />
  );
};
