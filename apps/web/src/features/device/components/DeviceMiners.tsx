import type { MinerListItem } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { StatusTag } from '../../../components/StatusTag';
import { showHashrate, showTemperature, showText } from '../../../lib/values';
import { useMinerList } from '../api-miner';
import { minerDetailPath } from '../use-id-param';

/** The miners of one FBOX or tank, ten at a time from the server, with a link to the full list. */
export const DeviceMiners = ({ filter }: { filter: { fbox_id?: string; tank_id?: string } }) => {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const miners = useMinerList({ page, limit: 10, filters: filter });
  const listLink = `/device/machineList?${new URLSearchParams(filter as Record<string, string>)}`;
  return (
    <Card
      size="small"
      title={t('device.miner.title')}
      extra={
        <Link to={listLink}>
          <Button size="small">{t('device.miner.openList')}</Button>
        </Link>
      }
    >
      <Table<MinerListItem>
        rowKey="id"
        size="small"
        loading={miners.isFetching && !miners.data}
        dataSource={miners.data?.items ?? []}
        pagination={{
          current: page,
          pageSize: 10,
          total: miners.data?.total ?? 0,
          onChange: setPage,
          showSizeChanger: false,
        }}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            key: 'worker',
            title: t('device.miner.worker'),
            render: (_, m) => <Link to={minerDetailPath(m.id)}>{showText(m.worker)}</Link>,
          },
          { key: 'ip', title: t('device.miner.ip'), dataIndex: 'ip' },
          { key: 'model', title: t('device.miner.model'), dataIndex: 'model' },
          {
            key: 'status',
            title: t('common.status.title'),
            render: (_, m) => <StatusTag status={m.status} />,
          },
          {
            key: 'hashrate',
            title: t('device.miner.hashrateRealtime'),
            render: (_, m) => showHashrate(m.hashrate_realtime),
          },
          {
            key: 'temp',
            title: t('device.miner.chipMax'),
            render: (_, m) => showTemperature(m.chip_max_temp),
          },
        ]}
      />
    </Card>
  );
};
