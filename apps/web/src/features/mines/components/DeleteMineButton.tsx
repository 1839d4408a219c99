import type { Mine } from '@fbox/contracts';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchDeletePreview, useDeleteMine } from '../api';

/**
 * Deletes a mine after a confirmation that names what goes with it: the server counts its FBOXes,
 * tanks, miners, client records and sub-accounts right before asking.
 */
export const DeleteMineButton = ({ mine }: { mine: Mine }) => {
  const { t } = useTranslation();
  const remove = useDeleteMine();
  const [modal, holder] = Modal.useModal();
  const [asking, setAsking] = useState(false);

  const onClick = async () => {
    setAsking(true);
    try {
      const preview = await fetchDeletePreview(mine.id);
      void modal.confirm({
        title: t('mines.delete.title', { name: preview.area_name }),
        content: (
          <span data-testid="mine-delete-summary">
            {t('mines.delete.content', {
              fboxes: t('mines.delete.fboxes', { count: preview.fboxes }),
              tanks: t('mines.delete.tanks', { count: preview.tanks }),
              miners: t('mines.delete.miners', { count: preview.miners }),
              clients: t('mines.delete.clients', { count: preview.clients }),
              subAccounts: t('mines.delete.subAccounts', { count: preview.sub_accounts }),
            })}
          </span>
        ),
        okText: t('common.action.delete'),
        cancelText: t('common.action.cancel'),
        okButtonProps: { danger: true },
        onOk: () => remove.mutateAsync(mine.id),
      });
    } catch {
      // The call already showed why (toast).
    } finally {
      setAsking(false);
    }
  };

  return (
    <>
      {holder}
      <Button
        size="small"
        danger
        loading={asking}
        onClick={() => void onClick()}
        data-testid={`mine-delete-${mine.id}`}
      >
        {t('common.action.delete')}
      </Button>
    </>
  );
};
