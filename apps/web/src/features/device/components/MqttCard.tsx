import type { FboxDetail } from '@fbox/contracts';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegenerateMqtt } from '../api-fbox';

/** The gateway's MQTT account (spec §3); masters may issue a new password after confirming. */
export const MqttCard = ({ fbox, canRegenerate }: { fbox: FboxDetail; canRegenerate: boolean }) => {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const regenerate = useRegenerateMqtt(fbox.id);
  const [modal, holder] = Modal.useModal();
  if (fbox.mqtt_username === undefined) return null;
  const onRegenerate = () =>
    void modal.confirm({
      title: t('device.box.mqttRegenerateTitle'),
      content: t('device.box.mqttRegenerateText'),
      okText: t('common.action.ok'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger: true },
      onOk: () => regenerate.mutateAsync().then(() => setShown(true)),
    });
  return (
    <Card
      size="small"
      title={t('device.box.mqtt')}
      extra={
        canRegenerate && (
          <Button
            danger
            size="small"
            onClick={onRegenerate}
            loading={regenerate.isPending}
            data-testid="mqtt-regenerate"
          >
            {t('device.box.mqttRegenerate')}
          </Button>
        )
      }
    >
      {holder}
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={t('device.box.mqttAccount')}>
          <Typography.Text copyable>{fbox.mqtt_username}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.box.mqttPassword')}>
          {shown ? (
            <Typography.Text copyable data-testid="mqtt-password">
              {fbox.mqtt_password}
            </Typography.Text>
          ) : (
            <Button size="small" onClick={() => setShown(true)}>
              {t('device.box.mqttShow')}
            </Button>
          )}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
};
