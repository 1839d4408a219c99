import Col from 'antd/es/col';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Typography from 'antd/es/typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFboxOptions } from '../../device';
import { useFboxTanks, useMatchingCount, useMinerFilterChoices } from '../api';

/** The miner list's filter as an export scope (what the contract's `filter` takes). */
export interface MinerFilterValue {
  keyword?: string;
  fbox_id?: number;
  tank_id?: number;
  status?: 'online' | 'offline';
  model?: string;
  brand?: string;
  mode?: 'high' | 'low';
}

/** The filter without its empty parts (the keyword trimmed), as sent. */
export const compactFilter = (value: MinerFilterValue | undefined): MinerFilterValue =>
  Object.fromEntries(
    Object.entries(value ?? {})
      .map(([key, v]) => [key, typeof v === 'string' ? v.trim() : v])
      .filter(([, v]) => v !== undefined && v !== null && v !== ''),
  ) as MinerFilterValue;

/** A value that follows `value` once it has stayed the same for `ms` (typing). */
const useSettled = <T,>(value: T, ms: number): T => {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
};

const strings = (values: string[] = []) => values.map((value) => ({ value, label: value }));

/**
 * The miner list's filters as one form value: text, FBOX, tank (within the FBOX), status, model,
 * brand and power mode; says how many miners of the mine match it now.
 */
export const MinerFilterInput = ({
  value,
  onChange,
  id,
}: {
  value?: MinerFilterValue;
  onChange?: (value: MinerFilterValue) => void;
  id?: string;
}) => {
  const { t } = useTranslation();
  const filter = value ?? {};
  const fboxes = useFboxOptions();
  const tanks = useFboxTanks(filter.fbox_id);
  const choices = useMinerFilterChoices(true);
  const settled = useSettled(compactFilter(filter), 300);
  const matching = useMatchingCount(settled as Record<string, string | number>, true);
  const set = (change: Partial<MinerFilterValue>) => onChange?.({ ...filter, ...change });
  const select = (name: keyof MinerFilterValue, label: string) => ({
    allowClear: true,
    showSearch: { optionFilterProp: 'label' },
    placeholder: label,
    'aria-label': label,
    style: { width: '100%' },
    'data-testid': `miner-logs-filter-${name}`,
  });

  return (
    <div id={id} data-testid="miner-logs-filter">
      <Row gutter={[8, 8]}>
        <Col xs={24} md={12}>
          <Input
            allowClear
            value={filter.keyword}
            onChange={(event) => set({ keyword: event.target.value })}
            placeholder={t('minerLogs.form.keyword')}
            aria-label={t('minerLogs.form.keyword')}
            data-testid="miner-logs-filter-keyword"
          />
        </Col>
        <Col xs={24} md={12}>
          <Select<number>
            {...select('fbox_id', t('field.fbox_id'))}
            value={filter.fbox_id}
            onChange={(fbox_id) => set({ fbox_id, tank_id: undefined })}
            loading={fboxes.isPending}
            options={(fboxes.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
          />
        </Col>
        <Col xs={24} md={12}>
          <Select<number>
            {...select('tank_id', t('field.tank_id'))}
            placeholder={filter.fbox_id ? t('field.tank_id') : t('minerLogs.form.tankAfterFbox')}
            disabled={!filter.fbox_id}
            value={filter.tank_id}
            onChange={(tank_id) => set({ tank_id })}
            options={(tanks.data ?? []).map((x) => ({ value: x.id, label: x.name }))}
          />
        </Col>
        <Col xs={24} md={12}>
          <Select<'online' | 'offline'>
            {...select('status', t('field.status'))}
            value={filter.status}
            onChange={(status) => set({ status })}
            options={[
              { value: 'online', label: t('common.status.online') },
              { value: 'offline', label: t('common.status.offline') },
            ]}
          />
        </Col>
        <Col xs={24} md={8}>
          <Select<string>
            {...select('model', t('field.model'))}
            value={filter.model}
            onChange={(model) => set({ model })}
            options={strings(choices.data?.models)}
          />
        </Col>
        <Col xs={24} md={8}>
          <Select<string>
            {...select('brand', t('field.brand'))}
            value={filter.brand}
            onChange={(brand) => set({ brand })}
            options={strings(choices.data?.brands)}
          />
        </Col>
        <Col xs={24} md={8}>
          <Select<'high' | 'low'>
            {...select('mode', t('field.mode'))}
            value={filter.mode}
            onChange={(mode) => set({ mode })}
            options={[
              { value: 'high', label: t('device.miner.modeHigh') },
              { value: 'low', label: t('device.miner.modeLow') },
            ]}
          />
        </Col>
      </Row>
      {matching.data !== undefined && (
        <Typography.Text
          type={matching.data === 0 ? 'warning' : 'secondary'}
          style={{ display: 'block', marginTop: 8 }}
          data-testid="miner-logs-filter-count"
        >
          {t('minerLogs.form.matching', { count: matching.data })}
        </Typography.Text>
      )}
    </div>
  );
};
