import { EyeInvisibleOutlined, EyeOutlined, ReloadOutlined } from '@ant-design/icons';
import type { Mine } from '@fbox/contracts';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRegenerateAgentKey } from '../api';
import styles from './AgentKeyCell.module.css';

const MASK = '••••••••••••••••';
/** Room for the key in the table: about 16 characters of it, the rest behind an ellipsis. */
const KEY_WIDTH = 200;

/** The Agent Key masked, with reveal, copy, and regenerate after a confirmation. */
export const AgentKeyCell = ({ mine }: { mine: Mine }) => {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  const regenerate = useRegenerateAgentKey();
  const [modal, holder] = Modal.useModal();

  const onRegenerate = () =>
    void modal.confirm({
      title: t('mines.agentKey.regenerateTitle', { name: mine.area_name }),
      content: t('mines.agentKey.regenerateText'),
      okText: t('common.action.ok'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger: true },
      onOk: () => regenerate.mutateAsync(mine.id).then(() => setShown(true)),
    });

  // The buttons come first and the key is cut to the column (whole in its tooltip and the copy),
  // so a revealed key never pushes them under the fixed Actions column (issue 12 point 8).
  return (
    <Space size={4} wrap={false} data-testid={`agent-key-${mine.id}`}>
      {holder}
      <Tooltip title={shown ? t('mines.agentKey.hide') : t('mines.agentKey.show')}>
        <Button
          size="small"
          type="text"
          aria-label={shown ? t('mines.agentKey.hide') : t('mines.agentKey.show')}
          icon={shown ? <EyeInvisibleOutlined /> : <EyeOutlined />}
          onClick={() => setShown((value) => !value)}
          data-testid="agent-key-toggle"
        />
      </Tooltip>
      <Tooltip title={t('mines.agentKey.regenerate')}>
        <Button
          size="small"
          type="text"
          danger
          aria-label={t('mines.agentKey.regenerate')}
          icon={<ReloadOutlined />}
          loading={regenerate.isPending}
          onClick={onRegenerate}
          data-testid="agent-key-regenerate"
        />
      </Tooltip>
      <Typography.Text code copyable={{ text: mine.agent_key }}>
        <span
          className={styles.key}
          style={{ maxWidth: KEY_WIDTH }}
          title={shown ? mine.agent_key : undefined}
          data-testid="agent-key-value"
        >
          {shown ? mine.agent_key : MASK}
        </span>
      </Typography.Text>
    </Space>
  );
};
