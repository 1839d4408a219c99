import type { NotifyTestData, PushChannel } from '@fbox/contracts';
import Button from 'antd/es/button';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import { useNotifyTest } from './api';

/**
 * "Send test" for one channel: sends to the saved addresses now and shows each real outcome (or
 * the server's refusal, e.g. no saved address).
 */
export const ChannelTest = ({ channel, disabled }: { channel: PushChannel; disabled?: boolean }) => {
  const { t } = useTranslation();
  const test = useNotifyTest();
  const [results, setResults] = useState<NotifyTestData['results'] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const onTest = async () => {
    setResults(null);
    setRefusal(null);
    try {
      setResults((await test.mutateAsync(channel)).results);
    } catch (error) {
      setRefusal(error instanceof ApiError ? error.message : String(error));
    }
  };

  return (
    <div data-testid={`notify-test-${channel}`} style={{ marginBottom: 16 }}>
      <Button
        size="small"
        title={t('notify.push.testHint')}
        loading={test.isPending}
        disabled={disabled}
        onClick={onTest}
      >
        {t('notify.push.sendTest')}
      </Button>
      {refusal && (
        <Typography.Text type="danger" style={{ marginLeft: 8 }}>
          {refusal}
        </Typography.Text>
      )}
      {results?.map((r) => (
        <div key={r.address}>
          <Typography.Text type={r.ok ? 'success' : 'danger'}>
            {r.address}:{' '}
            {r.ok ? t('notify.push.testSent') : t('notify.push.testFailed', { error: r.error ?? '' })}
          </Typography.Text>
        </div>
      ))}
    </div>
  );
};
