import Segmented from 'antd/es/segmented';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fitInterval,
  type HistoryInterval,
  type HistoryRange,
  historyRanges,
  intervalsFor,
} from '../history';

/** Range and interval of a history chart, the interval kept within the server's point limit. */
export const useHistoryChoice = (
  initialRange: HistoryRange = '24h',
  initialInterval: HistoryInterval = 300,
) => {
  const [range, setRange] = useState<HistoryRange>(initialRange);
  const [interval, setIntervalValue] = useState<HistoryInterval>(initialInterval);
  const fitted = fitInterval(range, interval);
  return { range, interval: fitted, setRange, setInterval: setIntervalValue };
};

export type HistoryChoice = ReturnType<typeof useHistoryChoice>;

/** Range buttons and the interval options of spec §9 (30 s … 2 h). */
export const HistoryControls = ({ choice }: { choice: HistoryChoice }) => {
  const { t } = useTranslation();
  const rangeLabels: Record<HistoryRange, string> = {
    '1h': t('device.history.range1h'),
    '6h': t('device.history.range6h'),
    '24h': t('device.history.range24h'),
    '7d': t('device.history.range7d'),
  };
  const intervalLabel = (seconds: number) =>
    seconds < 60
      ? t('device.history.seconds', { count: seconds })
      : seconds < 3600
        ? t('device.history.minutes', { count: seconds / 60 })
        : t('device.history.hours', { count: seconds / 3600 });
  return (
    <Space wrap>
      <Segmented<HistoryRange>
        value={choice.range}
        onChange={choice.setRange}
        options={(Object.keys(historyRanges) as HistoryRange[]).map((range) => ({
          value: range,
          label: rangeLabels[range],
        }))}
      />
      <Select<HistoryInterval>
        aria-label={t('device.history.interval')}
        value={choice.interval}
        onChange={choice.setInterval}
        style={{ width: 120 }}
        options={intervalsFor(choice.range).map((seconds) => ({
          value: seconds,
          label: intervalLabel(seconds),
        }))}
      />
    </Space>
  );
};
