import type { FboxConfigValues } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Form from 'antd/es/form';
import Popconfirm from 'antd/es/popconfirm';
import Skeleton from 'antd/es/skeleton';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../lib/access';
import { showServerErrors } from '../../lib/server-errors';
import { formatTime } from '../../lib/time';
import { useSelectedArea } from '../mines';
import { useFboxDefaults, useRemoveFboxDefaults, useSaveFboxDefaults } from './api';
import { ConfigFields } from './ConfigFields';
import styles from './fbox-config.module.css';

/** FBOX default settings of the selected mine: what every new FBOX of it starts with. */
export const FboxDefaultsPage = () => {
  const { t } = useTranslation();
  const [form] = Form.useForm<FboxConfigValues>();
  const area = useSelectedArea();
  const defaults = useFboxDefaults();
  const save = useSaveFboxDefaults();
  const remove = useRemoveFboxDefaults();
  const data = defaults.data;

  useEffect(() => {
    if (data) form.setFieldsValue(data);
  }, [data, form]);

  // Operators read the defaults; saving them is for masters and administrators.
  const mayManage = useCan()('fboxDefaultsSave');
  const onFinish = async (values: FboxConfigValues) => {
    try {
      await save.mutateAsync(values);
    } catch (error) {
      showServerErrors(form, error);
    }
  };

  return (
    <div className={styles.page} data-testid="fbox-defaults">
      <Card>
        <div className={styles.headerRow}>
          <Space wrap>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('fboxConfig.defaults.title', { mine: area?.area_name ?? '' })}
            </Typography.Title>
            {data &&
              (data.custom ? (
                <Tag color="blue" data-testid="defaults-kind">
                  {t('fboxConfig.defaults.custom')}
                </Tag>
              ) : (
                <Tag data-testid="defaults-kind">{t('fboxConfig.defaults.builtin')}</Tag>
              ))}
          </Space>
          {data?.updated_at && (
            <Typography.Text type="secondary">
              {t('fboxConfig.defaults.updatedAt', { time: formatTime(data.updated_at) })}
            </Typography.Text>
          )}
        </div>
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('fboxConfig.defaults.intro')}
        </Typography.Paragraph>
      </Card>
      <Card>
        {defaults.isError && (
          <Alert
            type="error"
            showIcon
            title={t('device.common.loadError')}
            action={<Button onClick={() => void defaults.refetch()}>{t('common.action.retry')}</Button>}
          />
        )}
        {!data && !defaults.isError && <Skeleton active paragraph={{ rows: 6 }} />}
        {data && (
          <Form
            form={form}
            name="fboxDefaults"
            layout="vertical"
            className={styles.form}
            initialValues={data}
            onFinish={onFinish}
            disabled={!mayManage}
          >
            <ConfigFields />
            <Space wrap hidden={!mayManage}>
              <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="defaults-save">
                {t('common.action.save')}
              </Button>
              <Popconfirm
                title={t('fboxConfig.defaults.resetConfirm')}
                okText={t('common.action.ok')}
                cancelText={t('common.action.cancel')}
                onConfirm={() => remove.mutateAsync()}
                disabled={!data.custom}
              >
                <Button disabled={!data.custom} loading={remove.isPending} data-testid="defaults-reset">
                  {t('fboxConfig.defaults.reset')}
                </Button>
              </Popconfirm>
            </Space>
          </Form>
        )}
      </Card>
    </div>
  );
};
