import { formatEnergy, formatHashrate, formatReading } from '@fbox/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFboxHistory } from '../api-fbox';
import { seriesOf } from '../history';
import { HistoryCard, type HistoryChart } from './HistoryCard';
import { useHistoryChoice } from './HistoryControls';

const kw = (v: number) => formatReading(v, 'kW', 2);
const plain = (v: number) => formatReading(v, '', 1);
const energy = (v: number) => formatEnergy(v);
const hashrate = (v: number) => formatHashrate(v);

/** Power, hashrate, temperature/humidity and energy of an FBOX over a chosen range and interval. */
export const FboxHistory = ({ id }: { id: number }) => {
  const { t } = useTranslation();
  const choice = useHistoryChoice();
  const history = useFboxHistory(id, choice.range, choice.interval);
  const points = history.data?.points ?? [];
  const charts = useMemo(
    (): HistoryChart[] => [
      {
        testId: 'box-chart-power',
        title: t('device.chart.power'),
        series: [{ name: t('device.box.power'), points: seriesOf(points, 'power_kw') }],
        format: kw,
        area: true,
      },
      {
        testId: 'box-chart-hashrate',
        title: t('device.chart.hashrate'),
        series: [{ name: t('device.box.hashrate'), points: seriesOf(points, 'hashrate') }],
        format: hashrate,
        area: true,
      },
      {
        testId: 'box-chart-climate',
        title: t('device.chart.climate'),
        series: [
          { name: `${t('device.box.temperature')} (°C)`, points: seriesOf(points, 'temperature') },
          { name: `${t('device.box.humidity')} (%)`, points: seriesOf(points, 'humidity') },
        ],
        format: plain,
      },
      {
        testId: 'box-chart-energy',
        title: t('device.chart.energy'),
        series: [{ name: t('device.box.energy'), points: seriesOf(points, 'energy_kwh') }],
        format: energy,
        area: true,
      },
    ],
    [points, t],
  );
  return <HistoryCard choice={choice} loading={history.isPending} charts={charts} />;
};
