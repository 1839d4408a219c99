import type { MeterCorrection } from '@fbox/contracts';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../lib/time';
import { NO_DATA, showEnergy } from '../../../lib/values';

/** A signed energy ("+12.5 kWh", "-12.5 kWh"): where a hand-entered reading moved energy. */
const signedEnergy = (kwh: number) => (kwh > 0 ? `+${showEnergy(kwh)}` : showEnergy(kwh));

/** Readings entered by hand: who entered what and why, and the energy each moved between hours. */
export const MeterCorrections = ({ rows }: { rows: MeterCorrection[] }) => {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Title level={5} style={{ marginTop: 16 }}>
        {t('device.meter.corrections')}
      </Typography.Title>
      <Table<MeterCorrection>
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={rows}
        data-testid="meter-corrections"
        scroll={{ x: true }}
        columns={[
          { key: 'no', title: t('device.box.meterNo'), dataIndex: 'no' },
          { key: 'at', title: t('device.meter.readAt'), render: (_, c) => formatTime(c.reading_at) },
          { key: 'reading', title: t('device.meter.reading'), render: (_, c) => showEnergy(c.reading_kwh) },
          { key: 'energy', title: t('device.meter.energyHere'), render: (_, c) => showEnergy(c.energy_kwh) },
          {
            key: 'next',
            title: t('device.meter.nextChange'),
            render: (_, c) =>
              c.next_hour_ts === null
                ? NO_DATA
                : `${signedEnergy(c.next_delta_kwh)} (${formatTime(c.next_hour_ts)})`,
          },
          { key: 'reason', title: t('field.reason'), dataIndex: 'reason' },
          {
            key: 'by',
            title: t('device.meter.by'),
            render: (_, c) => `${c.user_name || NO_DATA} · ${formatTime(c.created_at)}`,
          },
        ]}
      />
    </>
  );
};
