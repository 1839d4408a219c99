import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Row from 'antd/es/row';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { type ChartSeries, TimeSeriesChart } from '../../../components/charts/TimeSeriesChart';
import { type HistoryChoice, HistoryControls } from './HistoryControls';

/** One chart of a device's history card. */
export interface HistoryChart {
  testId: string;
  /** What the chart shows, above it ("Oil temperature"). */
  title: string;
  series: ChartSeries[];
  format: (value: number) => string;
  /** Fill under a single line (totals such as power or hashrate). */
  area?: boolean;
}

/** The history card of a device detail: range and interval controls above a two-column chart grid. */
export const HistoryCard = ({
  choice,
  loading,
  charts,
}: {
  choice: HistoryChoice;
  loading: boolean;
  charts: HistoryChart[];
}) => {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('device.history.title')} extra={<HistoryControls choice={choice} />}>
      <Row gutter={[16, 16]}>
        {charts.map((chart) => (
          <Col xs={24} xl={12} key={chart.testId}>
            <Typography.Text strong id={`${chart.testId}-title`}>
              {chart.title}
            </Typography.Text>
            <TimeSeriesChart
              testId={chart.testId}
              series={chart.series}
              format={chart.format}
              loading={loading}
              area={chart.area ?? false}
            />
          </Col>
        ))}
      </Row>
    </Card>
  );
};
