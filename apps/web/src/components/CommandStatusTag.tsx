import type { CommandStatus } from '@fbox/contracts';
import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';

export type OutcomeStatus = CommandStatus | 'not_found';

const colors: Record<OutcomeStatus, string> = {
  pending: 'processing',
  sent: 'processing',
  acknowledged: 'success',
  failed: 'error',
  timed_out: 'warning',
  not_found: 'default',
};

/** A command's state: pending → sent → acknowledged / failed / timed out. */
export const CommandStatusTag = ({ status }: { status: OutcomeStatus }) => {
  const { t } = useTranslation();
  const text = {
    pending: t('common.command.pending'),
    sent: t('common.command.sent'),
    acknowledged: t('common.command.acknowledged'),
    failed: t('common.command.failed'),
    timed_out: t('common.command.timed_out'),
    not_found: t('common.command.not_found'),
  }[status];
  return (
    <Tag color={colors[status]} data-status={status}>
      {text}
    </Tag>
  );
};
