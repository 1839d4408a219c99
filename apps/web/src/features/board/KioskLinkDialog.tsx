import type { Board } from '@fbox/contracts';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../lib/time';
import { useCreateKiosk, useRevokeKiosk } from './api';
import { kioskPath } from './board-types';

/**
 * A board's kiosk link: the address a wall TV opens to show this board alone, read-only, without
 * signing in. The server keeps only a hash of its token, so a new link is shown once, right after
 * it is made; making another stops the old one, and revoking stops it at once.
 */
export const KioskLinkDialog = ({ board, onClose }: { board: Board; onClose: () => void }) => {
  const { t } = useTranslation();
  const create = useCreateKiosk();
  const revoke = useRevokeKiosk();
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const shared = link !== null || board.kiosk_created_at !== null;

  const make = async () => {
    const made = await create.mutateAsync(board.id);
    setLink(`${window.location.origin}${kioskPath(board.type, made.token)}`);
    setCopied(false);
  };
  const copy = async () => {
    if (!link) return;
    await navigator.clipboard.writeText(link);
    setCopied(true);
  };

  return (
    <Modal
      open
      title={t('board.kiosk.title', { title: board.title })}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('common.action.ok')}</Button>}
      mask={{ closable: false }}
      destroyOnHidden
    >
      <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="kiosk-dialog">
        <Typography.Paragraph type="secondary">{t('board.kiosk.explain')}</Typography.Paragraph>
        {link !== null && (
          <>
            <Alert type="warning" showIcon title={t('board.kiosk.shownOnce')} />
            <Space.Compact style={{ width: '100%' }}>
              <Input readOnly value={link} data-testid="kiosk-link" onFocus={(e) => e.target.select()} />
              <Button onClick={() => void copy()} data-testid="kiosk-copy">
                {copied ? t('board.kiosk.copied') : t('board.kiosk.copy')}
              </Button>
            </Space.Compact>
          </>
        )}
        {link === null && board.kiosk_created_at !== null && (
          <Typography.Text data-testid="kiosk-state">
            {t('board.kiosk.since', { time: formatTime(board.kiosk_created_at) })}
          </Typography.Text>
        )}
        {!shared && <Typography.Text data-testid="kiosk-state">{t('board.kiosk.none')}</Typography.Text>}
        <Space>
          {shared ? (
            <Popconfirm
              title={t('board.kiosk.replaceQuestion')}
              okText={t('board.kiosk.replace')}
              cancelText={t('common.action.cancel')}
              onConfirm={make}
            >
              <Button loading={create.isPending} data-testid="kiosk-create">
                {t('board.kiosk.replace')}
              </Button>
            </Popconfirm>
          ) : (
            <Button
              type="primary"
              loading={create.isPending}
              onClick={() => void make()}
              data-testid="kiosk-create"
            >
              {t('board.kiosk.create')}
            </Button>
          )}
          {shared && (
            <Popconfirm
              title={t('board.kiosk.revokeQuestion')}
              okText={t('board.kiosk.revoke')}
              cancelText={t('common.action.cancel')}
              okButtonProps={{ danger: true }}
              onConfirm={async () => {
                await revoke.mutateAsync(board.id);
                setLink(null);
                onClose();
              }}
            >
              <Button danger loading={revoke.isPending} data-testid="kiosk-revoke">
                {t('board.kiosk.revoke')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      </Space>
    </Modal>
  );
};
