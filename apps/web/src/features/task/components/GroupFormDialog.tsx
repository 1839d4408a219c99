import { type GroupType, limits, type MinerGroup, MinerGroupAddBodySchema } from '@fbox/contracts';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import { showServerErrors } from '../../../lib/server-errors';
import { useCreateGroup, useRenameGroup } from '../api-groups';
import { fieldRules } from '../task-form';
import { useGroupTypeLabels } from './labels';

/** Creates a group of `type`, or renames `group`. */
export const GroupFormDialog = ({
  type,
  group,
  onClose,
}: {
  type: GroupType;
  group?: MinerGroup;
  onClose: () => void;
}) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const create = useCreateGroup();
  const rename = useRenameGroup();
  const typeLabels = useGroupTypeLabels();
  const label = t('task.group.name');

  const onFinish = async ({ name }: { name: string }) => {
    try {
      if (group) await rename.mutateAsync({ id: group.id, name: name.trim() });
      else await create.mutateAsync({ name: name.trim(), type });
      onClose();
    } catch (error) {
      showServerErrors(form, error);
    }
  };

  return (
    <FormModal
      open
      title={group ? t('task.group.renameTitle') : t('task.group.createTitle', { type: typeLabels[type] })}
      form={form}
      saving={create.isPending || rename.isPending}
      onClose={onClose}
      okButtonProps={{ 'data-testid': 'group-form-save' } as never}
    >
      <Form
        form={form}
        name="minerGroupForm"
        layout="vertical"
        initialValues={{ name: group?.name }}
        onFinish={onFinish}
      >
        <Form.Item name="name" label={label} rules={fieldRules(MinerGroupAddBodySchema.shape.name, label)}>
          <Input count={{ show: true, max: limits.taskNameMax }} autoFocus data-testid="group-form-name" />
        </Form.Item>
        {/* Enter in a field saves, as the OK button does (the modal's buttons are outside the form). */}
        <button type="submit" hidden />
      </Form>
    </FormModal>
  );
};
