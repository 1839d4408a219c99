import type { FormInstance } from 'antd/es/form';
import Modal, { type ModalProps } from 'antd/es/modal';
import { useTranslation } from 'react-i18next';

interface Props extends Omit<ModalProps, 'onOk' | 'onCancel' | 'confirmLoading' | 'cancelText'> {
  /** The form OK submits (the modal's buttons sit outside it). */
  form: FormInstance;
  saving: boolean;
  onClose: () => void;
}

/**
 * A dialog around one form: OK (Save unless `okText` says otherwise) submits it. A click beside the
 * dialog does not close it, so what was typed is not lost by accident.
 */
export const FormModal = ({ form, saving, onClose, okText, ...modal }: Props) => {
  const { t } = useTranslation();
  return (
    <Modal
      okText={okText ?? t('common.action.save')}
      cancelText={t('common.action.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={saving}
      mask={{ closable: false }}
      destroyOnHidden
      {...modal}
    />
  );
};
