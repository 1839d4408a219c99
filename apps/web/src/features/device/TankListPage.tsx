import type { TankListItem } from '@fbox/contracts';
import { TankListQuerySchema } from '@fbox/contracts';
import Card from 'antd/es/card';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CreateButton } from '../../components/CreateButton';
import { KeywordSearch } from '../../components/KeywordSearch';
import { type ServerColumn, ServerTable } from '../../components/ServerTable';
import { StatusTag } from '../../components/StatusTag';
import { tableQueryProps } from '../../components/table-query';
import { useCan } from '../../lib/access';
import { useListQuery } from '../../lib/use-list-query';
import { showHashrate, showLevel, showTemperature, showText } from '../../lib/values';
import { useFboxOptions } from './api-fbox';
import { useTankList } from './api-tank';
import styles from './components/device.module.css';
import { useStatusOptions } from './components/labels';
import { TankFormDialog } from './components/TankFormDialog';
import { fboxDetailPath, tankDetailPath } from './use-id-param';

const filterKeys = ['keyword', 'status', 'fbox_id'] as const;

/** Tank list (/device/deviceList): server-paged, by FBOX and status, searchable. */
export const TankListPage = () => {
  const { t } = useTranslation();
  const list = useListQuery({ filterKeys, schema: TankListQuerySchema });
  const tanks = useTankList(list.query);
  const fboxes = useFboxOptions();
  const statusOptions = useStatusOptions();
  const [creating, setCreating] = useState(false);
  const can = useCan();

  const columns: ServerColumn<TankListItem>[] = [
    {
      key: 'name',
      title: t('field.name'),
      sortField: 'name',
      hideable: false,
      fixed: 'left',
      render: (_, tank) => <Link to={tankDetailPath(tank.id)}>{tank.name}</Link>,
    },
    {
      key: 'work_number',
      title: t('device.tank.workNumber'),
      sortField: 'work_number',
      render: (_, x) => showText(x.work_number),
    },
    {
      key: 'fbox_name',
      title: t('device.tank.fbox'),
      sortField: 'fbox_name',
      render: (_, x) => <Link to={fboxDetailPath({ id: x.fbox_id, kind: '' })}>{x.fbox_name}</Link>,
    },
    { key: 'no', title: t('device.tank.no'), dataIndex: 'no', sortField: 'no' },
    {
      key: 'status',
      title: t('common.status.title'),
      sortField: 'status',
      filterName: 'status',
      filterOptions: statusOptions,
      render: (_, x) => <StatusTag status={x.status} />,
    },
    {
      key: 'oil_in_temp',
      title: t('device.tank.oilIn'),
      sortField: 'oil_in_temp',
      render: (_, x) => showTemperature(x.oil_in_temp),
    },
    {
      key: 'oil_out_temp',
      title: t('device.tank.oilOut'),
      sortField: 'oil_out_temp',
      render: (_, x) => showTemperature(x.oil_out_temp),
    },
    {
      key: 'liquid_level',
      title: t('device.tank.liquidLevel'),
      sortField: 'liquid_level',
      render: (_, x) => showLevel(x.liquid_level),
    },
    {
      key: 'control_mode',
      title: t('device.tank.controlMode'),
      sortField: 'control_mode',
      render: (_, x) => (x.control_mode === 'auto' ? t('device.tank.auto') : t('device.tank.manual')),
    },
    {
      key: 'energy_saving',
      title: t('device.tank.energySaving'),
      sortField: 'energy_saving',
      render: (_, x) => (x.energy_saving ? t('common.state.on') : t('common.state.off')),
    },
    {
      key: 'short_circuit',
      title: t('device.tank.shortCircuit'),
      render: (_, x) =>
        x.short_circuit ? (
          <Tag color="error">{t('device.tank.shortAlarm')}</Tag>
        ) : (
          <Tag>{t('device.tank.shortOk')}</Tag>
        ),
    },
    {
      key: 'miner_count',
      title: t('device.tank.miners'),
      sortField: 'miner_count',
      render: (_, x) => `${x.miner_online} / ${x.miner_count}`,
    },
    {
      key: 'hashrate',
      title: t('device.box.hashrate'),
      sortField: 'hashrate',
      render: (_, x) => showHashrate(x.hashrate),
    },
  ];

  return (
    <div className={styles.page}>
      <Card>
        <ServerTable<TankListItem>
          tableId="tank-list"
          testId="tank-list-table"
          columns={columns}
          list={list}
          {...tableQueryProps(tanks)}
          toolbar={
            <>
              <KeywordSearch list={list} placeholder={t('device.tank.search')} />
              <Select
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('device.tank.fbox')}
                aria-label={t('device.tank.fbox')}
                style={{ width: 200 }}
                loading={fboxes.isPending}
                value={list.query.filters.fbox_id ? Number(list.query.filters.fbox_id) : undefined}
                options={(fboxes.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
                onChange={(value?: number) => list.setFilters({ fbox_id: value ? String(value) : undefined })}
              />
              {can('tankAdd') && (
                <CreateButton
                  label={t('device.tank.create')}
                  testId="tank-create"
                  onClick={() => setCreating(true)}
                />
              )}
            </>
          }
        />
      </Card>
      {creating && <TankFormDialog onClose={() => setCreating(false)} />}
    </div>
  );
};
