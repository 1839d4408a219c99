import type { EndpointName } from '@fbox/contracts';
import { MinerOverclockBodySchema, MinerPoolBodySchema } from '@fbox/contracts';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Radio from 'antd/es/radio';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NumberInput } from '../../../components/NumberInput';
import { useCan } from '../../../lib/access';
import { schemaRule } from '../../../lib/form-rules';
import { type MinerBulkAction, useDeleteMiners, useMinerAction } from '../api-miner';
import type { Outcome } from '../outcome-reducer';
import { BulkFormDialog } from './BulkFormDialog';

export interface BulkStart {
  title: string;
  batchId: string;
  outcomes: Outcome[];
}

interface Props {
  ids: number[];
  /** Called with each miner's command once the server accepted the action. */
  onStarted: (start: BulkStart) => void;
  onDeleted: () => void;
}

const poolShape = MinerPoolBodySchema.shape;
const POOL_EXAMPLE = 'stratum+tcp://pool.example.com:3333';
const overclockShape = MinerOverclockBodySchema.shape;
/** The endpoint behind each bulk button: a button shows only when the caller may call it. */
export const bulkActionEndpoints = {
  restart: 'minerRestart',
  high: 'minerChangeMode',
  low: 'minerChangeMode',
  pool: 'minerChangePool',
  overclock: 'minerAutoOverclock',
  resave: 'minerResaveAccount',
  delete: 'minerDelete',
} as const satisfies Record<string, EndpointName>;

/** Whether any bulk action is open to the caller (else the list offers no row selection). */
export const useAnyBulkAction = (): boolean => {
  const can = useCan();
  return Object.values(bulkActionEndpoints).some(can);
};

const filled = (value: unknown) => value !== undefined && value !== null && value !== '';

/**
 * Bulk actions on the selected miners, each behind a confirmation that says how many miners it
 * touches: restart, high/low mode, pool change, auto overclock, re-save account, delete.
 */
export const MinerBulkActions = ({ ids, onStarted, onDeleted }: Props) => {
  const { t } = useTranslation();
  const [modal, holder] = Modal.useModal();
  const action = useMinerAction();
  const remove = useDeleteMiners();
  const [dialog, setDialog] = useState<'pool' | 'overclock' | null>(null);
  const [poolForm] = Form.useForm<{ pool_address: string; worker: string; password?: string }>();
  const [clockForm] = Form.useForm<{ status: 'on' | 'off'; min?: number; max?: number }>();
  const count = ids.length;
  const can = useCan();

  const run = async (bulk: MinerBulkAction, title: string) => {
    const result = await action.mutateAsync({ ids, action: bulk });
    onStarted({
      title,
      batchId: result.batch_id,
      outcomes: result.commands.map((c) => ({ key: c.miner_id, commandId: c.command_id, status: c.status })),
    });
  };

  const confirm = (bulk: MinerBulkAction, title: string, danger = false) =>
    void modal.confirm({
      title,
      content: t('device.miner.bulkConfirm', { count }),
      okText: t('common.action.ok'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger, 'data-testid': 'bulk-confirm-ok' } as never,
      onOk: () => run(bulk, title),
    });

  const onDelete = () =>
    void modal.confirm({
      title: t('device.miner.bulkDelete'),
      content: t('device.miner.deleteConfirm', { count }),
      okText: t('common.action.delete'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'bulk-confirm-ok' } as never,
      onOk: () => remove.mutateAsync({ ids }).then(onDeleted),
    });

  const none = count === 0;
  const button = (
    action: keyof typeof bulkActionEndpoints,
    testId: string,
    label: string,
    onClick: () => void,
    danger = false,
  ) =>
    can(bulkActionEndpoints[action]) && (
      <Button key={testId} data-testid={testId} disabled={none} danger={danger} onClick={onClick}>
        {label}
      </Button>
    );

  return (
    <Space wrap>
      {holder}
      {button('restart', 'miner-bulk-restart', t('device.miner.bulkRestart'), () =>
        confirm({ kind: 'restart' }, t('device.miner.bulkRestart')),
      )}
      {button('high', 'miner-bulk-mode-high', t('device.miner.bulkHigh'), () =>
        confirm({ kind: 'mode', mode: 'high' }, t('device.miner.bulkHigh')),
      )}
      {button('low', 'miner-bulk-mode-low', t('device.miner.bulkLow'), () =>
        confirm({ kind: 'mode', mode: 'low' }, t('device.miner.bulkLow')),
      )}
      {button('pool', 'miner-bulk-pool', t('device.miner.bulkPool'), () => setDialog('pool'))}
      {button('overclock', 'miner-bulk-overclock', t('device.miner.bulkOverclock'), () =>
        setDialog('overclock'),
      )}
      {button('resave', 'miner-bulk-resave', t('device.miner.bulkResave'), () =>
        confirm({ kind: 'resave' }, t('device.miner.bulkResave')),
      )}
      {button('delete', 'miner-bulk-delete', t('device.miner.bulkDelete'), onDelete, true)}

      <BulkFormDialog
        open={dialog === 'pool'}
        title={t('device.miner.bulkPool')}
        form={poolForm}
        name="minerPool"
        count={count}
        saving={action.isPending}
        onClose={() => setDialog(null)}
        onSubmit={(values) =>
          run({ kind: 'pool', ...values, password: values.password || undefined }, t('device.miner.bulkPool'))
        }
      >
        <Form.Item
          name="pool_address"
          label={t('device.miner.poolAddress')}
          required
          rules={[schemaRule(poolShape.pool_address, { label: t('device.miner.poolAddress') })]}
        >
          <Input autoFocus placeholder={POOL_EXAMPLE} />
        </Form.Item>
        <Form.Item
          name="worker"
          label={t('device.miner.worker')}
          required
          rules={[schemaRule(poolShape.worker, { label: t('device.miner.worker') })]}
        >
          <Input />
        </Form.Item>
        <Form.Item name="password" label={t('device.miner.poolPassword')}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </BulkFormDialog>

      <BulkFormDialog
        open={dialog === 'overclock'}
        title={t('device.miner.bulkOverclock')}
        form={clockForm}
        name="minerOverclock"
        count={count}
        saving={action.isPending}
        initialValues={{ status: 'on' }}
        onClose={() => setDialog(null)}
        onSubmit={(values) => run({ kind: 'overclock', ...values }, t('device.miner.bulkOverclock'))}
      >
        <Form.Item name="status" label={t('field.auto_frequency')}>
          <Radio.Group
            options={[
              { value: 'on', label: t('common.state.on') },
              { value: 'off', label: t('common.state.off') },
            ]}
          />
        </Form.Item>
        <Form.Item
          name="min"
          label={t('field.min')}
          rules={[schemaRule(overclockShape.min, { label: t('field.min'), when: filled })]}
        >
          <NumberInput style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item
          name="max"
          label={t('field.max')}
          dependencies={['min']}
          rules={[
            schemaRule(overclockShape.max, { label: t('field.max'), when: filled }),
            ({ getFieldValue }) => ({
              validator: async (_rule, value?: number) => {
                const min = getFieldValue('min') as number | undefined;
                if (filled(value) && filled(min) && (min as number) > (value as number))
                  throw new Error(t('device.miner.minAboveMax'));
              },
            }),
          ]}
        >
          <NumberInput style={{ width: '100%' }} />
        </Form.Item>
      </BulkFormDialog>
    </Space>
  );
};
