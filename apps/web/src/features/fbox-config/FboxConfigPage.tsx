import type { ConfigSource, FboxConfig } from '@fbox/contracts';
import { fboxConfigFields } from '@fbox/contracts';
import { useQueryClient } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Empty from 'antd/es/empty';
import Form from 'antd/es/form';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CommandStatusTag } from '../../components/CommandStatusTag';
import { StatusTag } from '../../components/StatusTag';
import { useCan } from '../../lib/access';
import { showServerErrors } from '../../lib/server-errors';
import { formatTime } from '../../lib/time';
import { isSettled, useCommandProgress, useFboxConfig, useSaveFboxConfig } from './api';
import { ConfigFields, fieldLabelKey, showConfigValue } from './ConfigFields';
import { type ConfigFormValues, notApplied, toFormValues, toSaveBody } from './config-form';
import styles from './fbox-config.module.css';
import { fboxConfigKeys } from './keys';

const sourceColors: Record<ConfigSource, string> = {
  fbox: 'blue',
  mine: 'green',
  account: 'purple',
  builtin: 'default',
};

const useSourceLabels = (): Record<ConfigSource, string> => {
  const { t } = useTranslation();
  return {
    fbox: t('fboxConfig.source.fbox'),
    mine: t('fboxConfig.source.mine'),
    account: t('fboxConfig.source.account'),
    builtin: t('fboxConfig.source.builtin'),
  };
};

/** What the gateway did with the last configuration sent: pending → acknowledged / failed (with why). */
const GatewayStatus = ({ config, commandId }: { config: FboxConfig; commandId: string | null }) => {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const progress = useCommandProgress(commandId);
  const command = progress.data ?? config.last_command;
  const settled = isSettled(command?.status);
  useEffect(() => {
    // The detail carries the last command too: refresh it once the gateway answered.
    if (settled)
      void queryClient.invalidateQueries({ queryKey: fboxConfigKeys.detail(config.area_id, config.fbox_id) });
  }, [settled, queryClient, config.area_id, config.fbox_id]);
  if (!command) return <Typography.Text type="secondary">{t('fboxConfig.config.neverSent')}</Typography.Text>;
  return (
    <Space orientation="vertical" data-testid="config-command">
      <Space wrap>
        <CommandStatusTag status={command.status} />
        <Typography.Text type="secondary">
          {t('fboxConfig.config.sentAt', { time: formatTime(command.created_at) })}
        </Typography.Text>
      </Space>
      {command.status === 'failed' && (
        <Alert type="error" showIcon title={t('fboxConfig.config.failed', { error: command.error ?? '' })} />
      )}
      {command.status === 'timed_out' && (
        <Alert type="warning" showIcon title={t('fboxConfig.config.timedOut')} />
      )}
    </Space>
  );
};

const EffectiveTable = ({ config }: { config: FboxConfig }) => {
  const { t } = useTranslation();
  const sources = useSourceLabels();
  return (
    <Table
      rowKey="field"
      size="small"
      pagination={false}
      data-testid="config-effective"
      dataSource={fboxConfigFields.map((field) => ({ field }))}
      columns={[
        {
          key: 'field',
          title: t('fboxConfig.config.field'),
          render: (_, { field }) => t(fieldLabelKey(field)),
        },
        {
          key: 'value',
          title: t('fboxConfig.config.value'),
          render: (_, { field }) => showConfigValue(field, config.values[field]),
        },
        {
          key: 'source',
          title: t('fboxConfig.config.source'),
          render: (_, { field }) => (
            <Tag color={sourceColors[config.sources[field]]} data-testid={`source-${field}`}>
              {sources[config.sources[field]]}
            </Tag>
          ),
        },
        {
          key: 'applied',
          title: t('fboxConfig.config.applied'),
          render: (_, { field }) => showConfigValue(field, config.applied[field]),
        },
      ]}
    />
  );
};

const ConfigEditor = ({ config, onSent }: { config: FboxConfig; onSent: (commandId: string) => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<ConfigFormValues>();
  const save = useSaveFboxConfig(config.fbox_id);
  const sources = useSourceLabels();
  // Operators read the configuration; saving it is for masters and administrators.
  const mayManage = useCan()('fboxConfigSave');
  const onFinish = async (values: ConfigFormValues) => {
    try {
      const saved = await save.mutateAsync(toSaveBody(values));
      onSent(saved.command_id);
      form.setFieldsValue(toFormValues(saved.config));
    } catch (error) {
      showServerErrors(form, error);
    }
  };
  return (
    <Form
      form={form}
      name="fboxConfig"
      layout="vertical"
      className={styles.form}
      initialValues={toFormValues(config)}
      onFinish={onFinish}
      disabled={!mayManage}
    >
      <ConfigFields
        inheritable
        extra={(field) => t('fboxConfig.config.currentFrom', { source: sources[config.sources[field]] })}
      />
      {mayManage && (
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="config-save">
          {t('fboxConfig.config.save')}
        </Button>
      )}
    </Form>
  );
};

/** One FBOX's configuration (/device/fboxConfig?id=): effective values with sources, edit, gateway status. */
export const FboxConfigPage = () => {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const raw = Number(search.get('id'));
  const id = Number.isInteger(raw) && raw > 0 ? raw : 0;
  const detail = useFboxConfig(id);
  const [commandId, setCommandId] = useState<string | null>(null);
  const config = detail.data;

  if (!config)
    return (
      <div className={styles.page} data-testid="fbox-config">
        <Card>
          {id === 0 ? (
            <Empty description={t('device.common.noId')} />
          ) : detail.isError ? (
            <Alert
              type="error"
              showIcon
              title={t('device.common.loadError')}
              action={<Button onClick={() => void detail.refetch()}>{t('common.action.retry')}</Button>}
            />
          ) : (
            <Skeleton active paragraph={{ rows: 8 }} />
          )}
        </Card>
      </div>
    );

  const stale = notApplied(config);
  return (
    <div className={styles.page} data-testid="fbox-config">
      <Card>
        <div className={styles.headerRow}>
          <Space wrap>
            <Typography.Title level={4} style={{ margin: 0 }} data-testid="config-title">
              {t('fboxConfig.config.title', { name: config.fbox_name })}
            </Typography.Title>
            <StatusTag status={config.status} />
          </Space>
          <Link to={`/device/boxDetail?id=${config.fbox_id}`}>{t('fboxConfig.config.backToBox')}</Link>
        </div>
      </Card>
      {stale.length > 0 && (
        <Alert
          type="warning"
          showIcon
          data-testid="config-stale"
          title={t('fboxConfig.config.notApplied', {
            fields: stale.map((f) => t(fieldLabelKey(f))).join(', '),
          })}
        />
      )}
      <Card size="small" title={t('fboxConfig.config.gateway')}>
        <GatewayStatus config={config} commandId={commandId ?? config.last_command?.id ?? null} />
      </Card>
      <Card size="small" title={t('fboxConfig.config.effective')}>
        <EffectiveTable config={config} />
      </Card>
      <Card size="small" title={t('fboxConfig.config.edit')}>
        <ConfigEditor key={config.fbox_id} config={config} onSent={setCommandId} />
      </Card>
    </div>
  );
};
