import { type GroupType, limits } from '@fbox/contracts';
import Col from 'antd/es/col';
import Form, { type FormItemProps } from 'antd/es/form';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import type { Dayjs } from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormModal } from '../../../components/FormModal';
import { NumberInput, type NumberInputProps } from '../../../components/NumberInput';
import { showServerErrors } from '../../../lib/server-errors';
import { endAfterStartRule, fieldRules, groupRules, requiredRule, topLevelField } from '../task-form';
import { GroupSelect } from './GroupSelect';
import { ZonedDateTime } from './ZonedDateTime';

/** What every task form holds, whatever its kind. */
export interface TaskFormBase {
  name: string;
  group_ids: number[];
  start_at: Dayjs;
  end_at: Dayjs;
}

type OwnField<V> = Exclude<keyof V & string, keyof TaskFormBase>;

/** A field of one kind of task: its label (also the rule messages'), hint and input. */
export interface TaskField<V> {
  name: OwnField<V>;
  label: string;
  extra?: string;
  input: ReactNode;
}

/** A number input as wide as its column, as every number of a task form is. */
export const TaskNumberInput = ({ testId, ...props }: NumberInputProps & { testId: string }) => (
  <NumberInput style={{ width: '100%' }} data-testid={testId} {...props} />
);

/** One field of the form, whatever it holds. */
interface FormField extends Pick<FormItemProps, 'rules' | 'extra' | 'required' | 'dependencies'> {
  name: string;
  label: string;
  input: ReactNode;
}

/** Every field takes half the row on a wide screen, the whole row on a narrow one. */
const FieldColumn = ({ name, label, input, ...item }: FormField) => (
  <Col xs={24} md={12}>
    <Form.Item name={name} label={label} {...item}>
      {input}
    </Form.Item>
  </Col>
);

interface Props<V extends TaskFormBase> {
  title: string;
  /** The antd form name: it prefixes the inputs' ids. */
  formName: string;
  testId: string;
  groupType: GroupType;
  /** The contract's field schemas the rules check with (spec §5). */
  shape: Record<OwnField<V> | 'name' | 'group_ids', z.ZodType>;
  initialValues: Partial<V>;
  fields: TaskField<V>[];
  saving: boolean;
  onSave: (values: V) => Promise<unknown>;
  onClose: () => void;
}

/**
 * The dialog every task form shares: name and groups first, the kind's own `fields`, then the
 * start and end. A save the server refuses shows its reasons on the fields.
 */
export const TaskFormDialog = <V extends TaskFormBase>({
  title,
  formName,
  testId,
  groupType,
  shape,
  initialValues,
  fields,
  saving,
  onSave,
  onClose,
}: Props<V>) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<V>();
  const nameLabel = t('task.form.name');
  const groupsLabel = t('field.group_ids');
  const start = t('field.start_at');
  const end = t('field.end_at');

  const common: FormField[] = [
    {
      name: 'name',
      label: nameLabel,
      rules: fieldRules(shape.name, nameLabel),
      input: <Input count={{ show: true, max: limits.taskNameMax }} autoFocus data-testid="task-form-name" />,
    },
    {
      name: 'group_ids',
      label: groupsLabel,
      rules: groupRules(shape.group_ids, groupsLabel),
      required: true,
      input: <GroupSelect type={groupType} />,
    },
  ];
  const own = fields.map((field) => ({ ...field, rules: fieldRules(shape[field.name], field.label) }));
  // Spec §5: both required, start earlier than end; picked in the user's time zone.
  const period: FormField[] = [
    {
      name: 'start_at',
      label: start,
      rules: [requiredRule(start)],
      input: <ZonedDateTime testId="task-form-start" />,
    },
    {
      name: 'end_at',
      label: end,
      dependencies: ['start_at'],
      rules: [requiredRule(end), endAfterStartRule],
      input: <ZonedDateTime testId="task-form-end" />,
    },
  ];

  const onFinish = async (values: V) => {
    try {
      await onSave(values);
      onClose();
    } catch (error) {
      showServerErrors(form, error, { field: topLevelField });
    }
  };

  return (
    <FormModal
      open
      title={title}
      form={form}
      saving={saving}
      onClose={onClose}
      width={760}
      okButtonProps={{ 'data-testid': 'task-form-save' } as never}
    >
      <Form<V>
        form={form}
        name={formName}
        layout="vertical"
        initialValues={initialValues}
        onFinish={onFinish}
        data-testid={testId}
      >
        <Row gutter={16}>
          {[...common, ...own].map((field) => (
            <FieldColumn key={field.name} {...field} />
          ))}
        </Row>
        {/* Its own row, so the window starts on a new line whatever the count of fields above. */}
        <Row gutter={16}>
          {period.map((field) => (
            <FieldColumn key={field.name} {...field} />
          ))}
        </Row>
        {/* Enter in a field saves, as the OK button does (the modal's buttons are outside the form). */}
        <button type="submit" hidden />
      </Form>
    </FormModal>
  );
};
