import type { RevenueDay } from '@fbox/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ChartFrame } from '../../components/charts/ChartFrame';
import { useEChart } from '../../components/charts/use-echart';

export interface DailyRevenueChartProps {
  days: readonly RevenueDay[];
  /** Bars in coins or in fiat; the profit line is always fiat. */
  unit: 'coin' | 'fiat';
  coin: string;
  fiat: string;
  loading?: boolean;
}

const poolColor = '#1677ff';
const estimatedColor = '#faad14';
const profitColor = '#52c41a';

/**
 * The revenue of each day as a bar, solid where the pools reported it and hatched where it is
 * estimated from the miners' hashrate (the legend names both), with the day's profit as a line.
 */
export const DailyRevenueChart = ({ days, unit, coin, fiat, loading }: DailyRevenueChartProps) => {
  const { t } = useTranslation();
  const { host, chart } = useEChart();
  const ready = chart !== null;
  const empty = days.every((d) => d.coin === null && d.profit === null);

  useEffect(() => {
    if (!chart) return;
    const value = (d: RevenueDay) => (unit === 'coin' ? d.coin : d.fiat);
    const barUnit = unit === 'coin' ? coin : fiat;
    const twoAxes = unit === 'coin';
    chart.setOption(
      {
        animation: false,
        grid: { left: 16, right: 24, top: 40, bottom: 24, containLabel: true },
        legend: { top: 0 },
        tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
        xAxis: { type: 'category', data: days.map((d) => d.day.slice(5)) },
        yAxis: [
          { type: 'value', name: barUnit, axisLabel: { formatter: (v: number) => String(v) } },
          ...(twoAxes ? [{ type: 'value', name: fiat, splitLine: { show: false } }] : []),
        ],
        series: [
          {
            type: 'bar',
            name: t('revenue.source.pool'),
            stack: 'revenue',
            color: poolColor,
            data: days.map((d) => (d.source === 'pool' ? value(d) : null)),
          },
          {
            type: 'bar',
            name: t('revenue.source.estimated'),
            stack: 'revenue',
            color: estimatedColor,
            itemStyle: {
              decal: {
                symbol: 'rect',
                color: 'rgba(255, 255, 255, 0.55)',
                dashArrayX: [1, 0],
                dashArrayY: [3, 4],
                rotation: -Math.PI / 4,
              },
            },
            data: days.map((d) => (d.source === 'estimated' ? value(d) : null)),
          },
          {
            type: 'line',
            name: t('revenue.chart.profit', { fiat }),
            yAxisIndex: twoAxes ? 1 : 0,
            color: profitColor,
            connectNulls: false,
            data: days.map((d) => d.profit),
          },
        ],
      },
      { notMerge: true },
    );
  }, [chart, days, unit, coin, fiat, t]);

  return (
    <ChartFrame
      host={host}
      ready={ready}
      loading={loading}
      empty={empty}
      height={320}
      testId="revenue-daily-chart"
    />
  );
};
