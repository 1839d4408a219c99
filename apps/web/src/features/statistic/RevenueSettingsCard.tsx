import {
  type RevenueCoin,
  type RevenueFiat,
  type RevenueSettings,
  RevenueSettingsSaveBodySchema,
  revenueCoins,
  revenueFiats,
} from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import Typography from 'antd/es/typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../lib/access';
import { schemaRule } from '../../lib/form-rules';
import { showServerErrors } from '../../lib/server-errors';
import { formatTime } from '../../lib/time';
import { NO_DATA } from '../../lib/values';
import { useRevenueSettings, useSaveRevenueSettings } from './revenue-api';

const fields = RevenueSettingsSaveBodySchema.shape;

interface FormValues {
  coin: RevenueCoin;
  network_difficulty: string;
  block_reward: string;
  coin_price: string;
  fiat: RevenueFiat;
  price_url: string;
}

const text = (value: number | null) => (value === null ? '' : String(value));

/** Hashprice as a reader wants it: coin per PH/s and day, 8 decimals. */
export const showHashprice = (hashprice: number | null, coin: string) =>
  hashprice === null ? NO_DATA : `${(hashprice * 1000).toFixed(8)} ${coin}/(PH/s·d)`;

/** The price line: entered, or read from the address (when, or why not). */
const PriceSource = ({ settings }: { settings: RevenueSettings }) => {
  const { t } = useTranslation();
  if (!settings.price_url)
    return <Typography.Text type="secondary">{t('revenue.settings.priceManual')}</Typography.Text>;
  if (settings.price_error)
    return (
      <Alert
        type="warning"
        showIcon
        data-testid="revenue-price-error"
        title={t('revenue.settings.priceFailed', { reason: settings.price_error })}
      />
    );
  return (
    <Typography.Text type="secondary">
      {settings.price_fetched_at === null
        ? t('revenue.settings.priceNotRead')
        : t('revenue.settings.priceRead', { time: formatTime(settings.price_fetched_at) })}
    </Typography.Text>
  );
};

/**
 * The mine's revenue settings: masters and administrators edit them (the form checks each field as
 * the server does), everyone else reads them.
 */
export const RevenueSettingsCard = () => {
  const { t } = useTranslation();
  const can = useCan();
  const settings = useRevenueSettings();
  const save = useSaveRevenueSettings();
  const [form] = Form.useForm<FormValues>();
  const data = settings.data;
  const editable = can('revenueSettingsSave');

  useEffect(() => {
    if (!data) return;
    form.setFieldsValue({
      coin: data.coin,
      network_difficulty: text(data.network_difficulty),
      block_reward: text(data.block_reward),
      coin_price: text(data.coin_price),
      fiat: data.fiat,
      price_url: data.price_url,
    });
  }, [data, form]);

  const onSave = (values: FormValues) =>
    save.mutate(values, { onError: (error) => showServerErrors(form, error) });
  const label = (name: keyof FormValues) => t(`field.${name}`);
  const rule = (name: keyof FormValues) => schemaRule(fields[name], { label: label(name) });

  return (
    <Card title={t('revenue.settings.title')} data-testid="revenue-settings" size="small">
      {settings.isPending && <Skeleton active paragraph={{ rows: 3 }} title={false} />}
      {settings.isError && <Alert type="error" showIcon title={t('revenue.error')} />}
      {data && !editable && (
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          <Descriptions.Item label={label('coin')}>{data.coin}</Descriptions.Item>
          <Descriptions.Item label={label('network_difficulty')}>
            {data.network_difficulty ?? NO_DATA}
          </Descriptions.Item>
          <Descriptions.Item label={label('block_reward')}>{data.block_reward ?? NO_DATA}</Descriptions.Item>
          <Descriptions.Item label={label('coin_price')}>
            {data.coin_price === null ? NO_DATA : `${data.coin_price} ${data.fiat}`}
          </Descriptions.Item>
          <Descriptions.Item label={label('price_url')}>{data.price_url || NO_DATA}</Descriptions.Item>
          <Descriptions.Item label={t('revenue.settings.hashprice')}>
            {showHashprice(data.hashprice, data.coin)}
          </Descriptions.Item>
        </Descriptions>
      )}
      {data && editable && (
        <Form<FormValues>
          form={form}
          name="revenueSettings"
          layout="vertical"
          onFinish={onSave}
          requiredMark={false}
        >
          <div
            style={{
              display: 'grid',
              gap: '0 16px',
              gridTemplateColumns: 'repeat(auto-fill, minmax(200px, 1fr))',
            }}
          >
            <Form.Item name="coin" label={label('coin')} rules={[rule('coin')]}>
              <Select options={revenueCoins.map((c) => ({ value: c, label: c }))} />
            </Form.Item>
            <Form.Item
              name="network_difficulty"
              label={label('network_difficulty')}
              rules={[rule('network_difficulty')]}
            >
              <Input inputMode="decimal" placeholder="126000000000000" />
            </Form.Item>
            <Form.Item
              name="block_reward"
              label={label('block_reward')}
              tooltip={t('revenue.settings.blockRewardHint')}
              rules={[rule('block_reward')]}
            >
              <Input inputMode="decimal" placeholder="3.15" />
            </Form.Item>
            <Form.Item name="fiat" label={label('fiat')} rules={[rule('fiat')]}>
              <Select options={revenueFiats.map((f) => ({ value: f, label: f }))} />
            </Form.Item>
            <Form.Item name="coin_price" label={label('coin_price')} rules={[rule('coin_price')]}>
              <Input inputMode="decimal" />
            </Form.Item>
            <Form.Item
              name="price_url"
              label={label('price_url')}
              tooltip={t('revenue.settings.priceUrlHint')}
              rules={[rule('price_url')]}
            >
              <Input placeholder={t('revenue.settings.priceUrlPlaceholder')} />
            </Form.Item>
          </div>
          <div style={{ display: 'flex', gap: 16, alignItems: 'center', flexWrap: 'wrap' }}>
            <Button
              type="primary"
              htmlType="submit"
              loading={save.isPending}
              data-testid="revenue-settings-save"
            >
              {t('common.action.save')}
            </Button>
            <Typography.Text>
              {t('revenue.settings.hashprice')}: {showHashprice(data.hashprice, data.coin)}
            </Typography.Text>
            {data.updated_at !== null && (
              <Typography.Text type="secondary">
                {t('revenue.settings.updatedAt', { time: formatTime(data.updated_at) })}
              </Typography.Text>
            )}
          </div>
        </Form>
      )}
      {data && (
        <div style={{ marginTop: 8 }}>
          <PriceSource settings={data} />
        </div>
      )}
    </Card>
  );
};
