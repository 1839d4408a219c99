import type { FboxDetail } from '@fbox/contracts';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Progress from 'antd/es/progress';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { showDrive, showFlowRate, showPercent, showTemperature } from '../../../lib/values';

type Pump = FboxDetail['pumps'][number];

/** The water loop of a hydro FBOX: temperatures, flow, valve and pumps. */
export const HydroCard = ({ fbox }: { fbox: FboxDetail }) => {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('device.box.hydro')} data-testid="box-hydro">
      <Descriptions size="small" column={{ xs: 1, md: 2, xl: 4 }}>
        <Descriptions.Item label={t('device.box.waterIn')}>
          {showTemperature(fbox.water_in_temp)}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.box.waterOut')}>
          {showTemperature(fbox.water_out_temp)}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.box.flowRate')}>{showFlowRate(fbox.flow_rate)}</Descriptions.Item>
        <Descriptions.Item label={t('device.box.valve')}>{showPercent(fbox.valve_opening)}</Descriptions.Item>
      </Descriptions>
      <Table<Pump>
        rowKey="no"
        size="small"
        pagination={false}
        dataSource={fbox.pumps}
        locale={{ emptyText: t('device.box.noPumps') }}
        columns={[
          { key: 'no', title: t('device.box.pumpNo'), dataIndex: 'no' },
          {
            key: 'status',
            title: t('common.status.title'),
            render: (_, p) => (
              <Tag color={p.status === 'on' ? 'success' : 'default'}>
                {p.status === 'on' ? t('common.state.on') : t('common.state.off')}
              </Tag>
            ),
          },
          { key: 'speed', title: t('device.box.pumpSpeed'), render: (_, p) => showDrive(p.speed) },
          {
            key: 'load',
            title: t('device.tank.load'),
            render: (_, p) =>
              p.percent === null ? '-' : <Progress percent={p.percent} size="small" style={{ width: 140 }} />,
          },
        ]}
      />
    </Card>
  );
};
