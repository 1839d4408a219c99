import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../lib/time';
import { useOverclockPolicy } from './api';

/** Under the Auto Overclock switch: to how many miners the policy went, and how far they are. */
export const OverclockPolicyNote = () => {
  const { t } = useTranslation();
  const { data: policy } = useOverclockPolicy();
  if (!policy?.batch_id || policy.sent_at === null) return null;
  const { counts } = policy;
  return (
    <Typography.Paragraph type="secondary" data-testid="overclock-policy">
      {t('fboxConfig.switches.overclockSent', {
        status: policy.status === 'on' ? t('common.state.on') : t('common.state.off'),
        count: policy.miners,
        time: formatTime(policy.sent_at),
      })}
      <br />
      {t('fboxConfig.switches.overclockProgress', {
        acknowledged: counts.acknowledged,
        failed: counts.failed + counts.timed_out,
        open: counts.pending + counts.sent,
      })}
    </Typography.Paragraph>
  );
};
