import type { FboxListItem } from '@fbox/contracts';
import { FboxListQuerySchema } from '@fbox/contracts';
import Card from 'antd/es/card';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CreateButton } from '../../components/CreateButton';
import { KeywordSearch } from '../../components/KeywordSearch';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { StatusTag } from '../../components/StatusTag';
import { tableQueryProps } from '../../components/table-query';
import { useCan } from '../../lib/access';
import { formatTime } from '../../lib/time';
import { useListQuery } from '../../lib/use-list-query';
import { showEnergy, showHashrate, showPercent, showPowerKw, showTemperature } from '../../lib/values';
import { useFboxList } from './api-fbox';
import styles from './components/device.module.css';
import { FboxFormDialog } from './components/FboxFormDialog';
import { useKindLabels, useStatusOptions } from './components/labels';
import { fboxDetailPath } from './use-id-param';

const filterKeys = ['keyword', 'status', 'kind'] as const;

/** FBOX list (/device/boxList): server-paged, searchable, with status and kind filters. */
export const BoxListPage = () => {
  const { t } = useTranslation();
  const list = useListQuery({ filterKeys, schema: FboxListQuerySchema });
  const fboxes = useFboxList(list.query);
  const kindLabels = useKindLabels();
  const statusOptions = useStatusOptions();
  const [creating, setCreating] = useState(false);
  const can = useCan();

  const columns: ServerColumn<FboxListItem>[] = [
    {
      key: 'name',
      title: t('field.name'),
      sortField: 'name',
      hideable: false,
      fixed: 'left',
      render: (_, fbox) => <Link to={fboxDetailPath(fbox)}>{fbox.name}</Link>,
    },
    { key: 'number', title: t('field.number'), dataIndex: 'number', sortField: 'number' },
    {
      key: 'kind',
      title: t('field.kind'),
      sortField: 'kind',
      filterName: 'kind',
      filterOptions: (['air', 'immersion', 'hydro'] as const).map((kind) => ({
        text: kindLabels[kind],
        value: kind,
      })),
      render: (_, fbox) => kindLabels[fbox.kind],
    },
    {
      key: 'status',
      title: t('common.status.title'),
      sortField: 'status',
      filterName: 'status',
      filterOptions: statusOptions,
      render: (_, fbox) => <StatusTag status={fbox.status} />,
    },
    {
      key: 'temperature',
      title: t('device.box.temperature'),
      sortField: 'temperature',
      render: (_, f) => showTemperature(f.temperature),
    },
    {
      key: 'humidity',
      title: t('device.box.humidity'),
      sortField: 'humidity',
      render: (_, f) => showPercent(f.humidity),
    },
    {
      key: 'power',
      title: t('device.box.power'),
      sortField: 'power',
      render: (_, f) => showPowerKw(f.power_kw),
    },
    {
      key: 'hashrate',
      title: t('device.box.hashrate'),
      sortField: 'hashrate',
      render: (_, f) => showHashrate(f.hashrate),
    },
    { key: 'energy', title: t('device.box.todayEnergy'), render: (_, f) => showEnergy(f.today_energy_kwh) },
    {
      key: 'miner_online',
      title: t('device.box.minersOnline'),
      dataIndex: 'miner_online',
      sortField: 'miner_online',
    },
    {
      key: 'miner_offline',
      title: t('device.box.minersOffline'),
      dataIndex: 'miner_offline',
      sortField: 'miner_offline',
    },
    { key: 'tank_count', title: t('device.box.tanks'), dataIndex: 'tank_count' },
    { key: 'device_id', title: t('field.device_id'), dataIndex: 'device_id', defaultHidden: true },
    {
      key: 'last_seen',
      title: t('device.common.lastSeen'),
      sortField: 'last_seen',
      render: (_, f) => (f.last_seen_at ? formatTime(f.last_seen_at) : '-'),
    },
  ];

  return (
    <div className={styles.page}>
      <Card>
        <ServerTable<FboxListItem>
          tableId="fbox-list"
          testId="box-list-table"
          columns={columns}
          list={list}
          {...tableQueryProps(fboxes)}
          toolbar={
            <>
              <KeywordSearch
                list={list}
                placeholder={t('device.box.search')}
                testId="box-search"
                width={260}
              />
              {can('fboxCreate') && (
                <CreateButton
                  label={t('device.box.create')}
                  testId="box-create"
                  onClick={() => setCreating(true)}
                />
              )}
            </>
          }
        />
      </Card>
      {creating && <FboxFormDialog open onClose={() => setCreating(false)} />}
    </div>
  );
};
