import { formatEnergy, formatHashrate, formatReading } from '@fbox/contracts';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Row from 'antd/es/row';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { TimeSeriesChart } from '../../../components/charts/TimeSeriesChart';
import { useFboxHistory } from '../api-fbox';
import { seriesOf } from '../history';
import { HistoryControls, useHistoryChoice } from './HistoryControls';

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
    () => ({
      power: [{ name: t('device.box.power'), points: seriesOf(points, 'power_kw') }],
      hashrate: [{ name: t('device.box.hashrate'), points: seriesOf(points, 'hashrate') }],
      climate: [
        { name: `${t('device.box.temperature')} (°C)`, points: seriesOf(points, 'temperature') },
        { name: `${t('device.box.humidity')} (%)`, points: seriesOf(points, 'humidity') },
      ],
      energy: [{ name: t('device.box.energy'), points: seriesOf(points, 'energy_kwh') }],
    }),
    [points, t],
  );
  const loading = history.isPending;
  return (
    <Card size="small" title={t('device.history.title')} extra={<HistoryControls choice={choice} />}>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <TimeSeriesChart
            testId="box-chart-power"
            series={charts.power}
            format={kw}
            loading={loading}
            area
          />
        </Col>
        <Col xs={24} xl={12}>
          <TimeSeriesChart
            testId="box-chart-hashrate"
            series={charts.hashrate}
            format={hashrate}
            loading={loading}
            area
          />
        </Col>
        <Col xs={24} xl={12}>
          <TimeSeriesChart
            testId="box-chart-climate"
            series={charts.climate}
            format={plain}
            loading={loading}
          />
        </Col>
        <Col xs={24} xl={12}>
          <TimeSeriesChart
            testId="box-chart-energy"
            series={charts.energy}
            format={energy}
            loading={loading}
            area
          />
        </Col>
      </Row>
    </Card>
  );
};
