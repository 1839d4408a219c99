import type { CommandStatus, FboxDetail } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Popconfirm from 'antd/es/popconfirm';
import type { ColumnType } from 'antd/es/table';
import Table from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CommandStatusTag, type OutcomeStatus } from '../../../components/CommandStatusTag';
import { formatTime } from '../../../lib/time';
import { showEnergy, showPlain, showPowerKw, showText } from '../../../lib/values';
import { useMeterCorrections, useSetMeter } from '../api-fbox';
import { MeterCorrections } from './MeterCorrections';
import { MeterReadingDialog } from './MeterReadingDialog';

type Meter = FboxDetail['meters'][number];

/**
 * Power meters with their readings, a reset (after confirmation) that is a command to the box, and
 * readings entered by hand where the gateway's are missing, listed below the meters.
 */
export const MetersCard = ({
  fbox,
  statusOf,
  onCommand,
  canReset,
}: {
  fbox: FboxDetail;
  /** Masters and administrators may reset a meter or enter a reading (operators only read). */
  canReset: boolean;
  statusOf: (key: string) => OutcomeStatus | undefined;
  onCommand: (key: string, id: string, status: CommandStatus) => void;
}) => {
  const { t } = useTranslation();
  const setMeter = useSetMeter(fbox.id);
  const corrections = useMeterCorrections(fbox.id);
  const [entering, setEntering] = useState<number | null>(null);
  const reset = async (no: number) => {
    const answer = await setMeter.mutateAsync({ meter_no: no, reset: 'on' });
    if (answer.command) onCommand(`meter-${no}`, answer.command.command_id, answer.command.status);
  };
  const resetColumn: ColumnType<Meter> = {
    key: 'action',
    title: t('common.table.actions'),
    render: (_, m) => {
      const status = statusOf(`meter-${m.no}`);
      return (
        <>
          <Popconfirm
            title={t('device.box.resetConfirm', { no: m.no })}
            okText={t('common.action.ok')}
            cancelText={t('common.action.cancel')}
            onConfirm={() => reset(m.no)}
          >
            <Button size="small" danger data-testid={`meter-reset-${m.no}`}>
              {t('device.box.reset')}
            </Button>
          </Popconfirm>{' '}
          <Button size="small" onClick={() => setEntering(m.no)} data-testid={`meter-enter-${m.no}`}>
            {t('device.meter.enterReading')}
          </Button>{' '}
          {status && <CommandStatusTag status={status} />}
        </>
      );
    },
  };
  return (
    <Card size="small" title={t('device.box.meters')}>
      <Table<Meter>
        rowKey="no"
        size="small"
        pagination={false}
        dataSource={fbox.meters}
        columns={[
          { key: 'no', title: t('device.box.meterNo'), dataIndex: 'no' },
          { key: 'number', title: t('device.box.meterNumber'), render: (_, m) => showText(m.meter_number) },
          {
            key: 'ratio',
            title: t('device.box.sensorRatio'),
            render: (_, m) => showPlain(m.sensor_ratio, 2),
          },
          { key: 'energy', title: t('device.box.accumulated'), render: (_, m) => showEnergy(m.energy_kwh) },
          { key: 'power', title: t('device.box.power'), render: (_, m) => showPowerKw(m.power_kw) },
          {
            key: 'reset_at',
            title: t('device.box.resetAt'),
            render: (_, m) => (m.reset_at ? formatTime(m.reset_at) : '-'),
          },
          ...(canReset ? [resetColumn] : []),
        ]}
      />
      {corrections.data && corrections.data.length > 0 && <MeterCorrections rows={corrections.data} />}
      {entering !== null && (
        <MeterReadingDialog fboxId={fbox.id} no={entering} onClose={() => setEntering(null)} />
      )}
    </Card>
  );
};
