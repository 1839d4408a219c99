import Empty from 'antd/es/empty';
import Skeleton from 'antd/es/skeleton';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './TimeSeriesChart.module.css';

interface ChartFrameProps {
  /** The element the chart draws on (`useEChart().host`). */
  host: RefObject<HTMLDivElement | null>;
  /** The chart exists (echarts loaded, a canvas to draw on). */
  ready: boolean;
  loading?: boolean;
  /** Nothing to draw: says so instead of empty axes. */
  empty: boolean;
  /** Pixels, or a CSS length (`100%` to fill a sized box). */
  height: number | string;
  testId?: string;
}

/** A chart's box: its canvas, a skeleton while it or its data loads, "no data" when empty. */
export const ChartFrame = ({ host, ready, loading, empty, height, testId }: ChartFrameProps) => {
  const { t } = useTranslation();
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
