import { type CommandRef, isNoData, percentLoad, type TankDetail } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Progress from 'antd/es/progress';
import Segmented from 'antd/es/segmented';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import Table from 'antd/es/table';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { CommandStatusTag } from '../../../components/CommandStatusTag';
import { useCan } from '../../../lib/access';
import { showDrive } from '../../../lib/values';
import { useTankCommand } from '../api-tank';
import { useTrackedCommands } from '../use-command-outcomes';

type Load = TankDetail['fans'][number];

/**
 * Tank controls: control mode, energy-saving mode and each fan. Every change is confirmed first (it
 * changes the tank's cooling) and is a command to the gateway, shown pending until it is
 * acknowledged, fails or times out.
 */
export const TankControls = ({ tank }: { tank: TankDetail }) => {
  const { t } = useTranslation();
  const commands = useTrackedCommands();
  const mode = useTankCommand('tankControllerSwitch');
  const saving = useTankCommand('tankOilSetting');
  const fan = useTankCommand('tankControllerSwitchV2');
  const track = (key: string) => (ref: CommandRef) => commands.track(key, ref.command_id, ref.status);
  const status = (key: string) => {
    const value = commands.statusOf(key);
    return value ? <CommandStatusTag status={value} /> : null;
  };
  const manual = tank.control_mode === 'manual';
  const [modal, holder] = Modal.useModal();
  const confirm = (title: string, content: string, onOk: () => Promise<unknown>, danger = false) =>
    void modal.confirm({
      title,
      content,
      okText: t('common.action.ok'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger },
      onOk,
    });
  const switchMode = (control_mode: 'auto' | 'manual') =>
    confirm(
      t('device.tank.modeConfirmTitle', {
        name: tank.name,
        mode: control_mode === 'manual' ? t('device.tank.manual') : t('device.tank.auto'),
      }),
      control_mode === 'manual' ? t('device.tank.modeToManual') : t('device.tank.modeToAuto'),
      () => mode.mutateAsync({ id: tank.id, control_mode }).then(track('mode')),
    );
  const switchFan = (no: number, state: 'on' | 'off') =>
    confirm(
      t('device.tank.fanConfirm', {
        no,
        state: state === 'on' ? t('common.state.on') : t('common.state.off'),
      }),
      state === 'off' ? t('device.tank.fanOffWarning') : '',
      () => fan.mutateAsync({ id: tank.id, device: 'fan', no, status: state }).then(track(`fan-${no}`)),
      state === 'off',
    );
  // Mode and fans are the operator's tankControl rule; energy saving is configuration (managers).
  const can = useCan();
  const canSwitch = can('tankControllerSwitch');
  const canFan = can('tankControllerSwitchV2');
  const canSaving = can('tankOilSetting');

  return (
    <Card size="small" title={t('device.tank.controls')} data-testid="tank-controls">
      {holder}
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('device.tank.controlMode')}>
          <Space>
            <Segmented<'auto' | 'manual'>
              value={tank.control_mode}
              disabled={mode.isPending || !canSwitch}
              options={[
                { value: 'auto', label: t('device.tank.auto') },
                { value: 'manual', label: t('device.tank.manual') },
              ]}
              onChange={switchMode}
              data-testid="tank-mode"
            />
            {status('mode')}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.tank.energySaving')}>
          <Space>
            <Popconfirm
              title={
                tank.energy_saving ? t('device.tank.energyOffConfirm') : t('device.tank.energyOnConfirm')
              }
              okText={t('common.action.ok')}
              cancelText={t('common.action.cancel')}
              disabled={!canSaving}
              onConfirm={() =>
                saving
                  .mutateAsync({ id: tank.id, energy_saving: tank.energy_saving ? 'off' : 'on' })
                  .then(track('saving'))
              }
            >
              <Switch
                checked={tank.energy_saving}
                loading={saving.isPending}
                disabled={!canSaving}
                data-testid="tank-energy-saving"
              />
            </Popconfirm>
            {status('saving')}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <Table<Load>
        rowKey="no"
        size="small"
        pagination={false}
        dataSource={tank.fans}
        locale={{ emptyText: t('device.tank.noFans') }}
        columns={[
          { key: 'no', title: t('device.tank.fanNo'), dataIndex: 'no' },
          {
            key: 'state',
            title: t('device.tank.fanState'),
            // Its drive output: above zero it turns.
            render: (_, f) =>
              isNoData(f.value) ? (
                '-'
              ) : f.value > 0 ? (
                <Tag color="green">{t('device.tank.fanRunning')}</Tag>
              ) : (
                <Tag>{t('device.tank.fanStopped')}</Tag>
              ),
          },
          { key: 'value', title: t('device.tank.fanSpeed'), render: (_, f) => showDrive(f.value) },
          {
            key: 'load',
            title: t('device.tank.load'),
            render: (_, f) => {
              const percent = f.percent ?? percentLoad(f.value, tank.electricity_hz);
              return percent === null ? (
                '-'
              ) : (
                <Progress percent={percent} size="small" style={{ width: 140 }} />
              );
            },
          },
          {
            key: 'switch',
            title: t('device.tank.fanSwitch'),
            render: (_, f) => (
              <Space>
                <Button
                  size="small"
                  disabled={!manual || !canFan}
                  title={manual ? undefined : t('device.tank.manualOnly')}
                  onClick={() => switchFan(f.no, 'on')}
                  data-testid={`tank-fan-${f.no}-on`}
                >
                  {t('common.state.on')}
                </Button>
                <Button
                  size="small"
                  disabled={!manual || !canFan}
                  onClick={() => switchFan(f.no, 'off')}
                  data-testid={`tank-fan-${f.no}-off`}
                >
                  {t('common.state.off')}
                </Button>
                {status(`fan-${f.no}`)}
              </Space>
            ),
          },
        ]}
      />
    </Card>
  );
};
