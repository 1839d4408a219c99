import Button from 'antd/es/button';
import Popconfirm from 'antd/es/popconfirm';
import { useTranslation } from 'react-i18next';

/** A danger Delete button that asks first; `question` names what goes. */
export const DeleteButton = ({
  question,
  testId,
  onConfirm,
}: {
  question: string;
  testId: string;
  onConfirm: () => Promise<unknown>;
}) => {
  const { t } = useTranslation();
  return (
    <Popconfirm
      title={question}
      okText={t('common.action.delete')}
      cancelText={t('common.action.cancel')}
      okButtonProps={{ danger: true }}
      onConfirm={onConfirm}
    >
      <Button danger data-testid={testId}>
        {t('common.action.delete')}
      </Button>
    </Popconfirm>
  );
};
