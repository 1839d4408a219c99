import type { GroupType } from '@fbox/contracts';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { useGroupOptions } from '../api-groups';

interface Props {
  type: GroupType;
  value?: number[];
  onChange?: (ids: number[]) => void;
  id?: string;
}

/** Several miner groups of one type (a task only takes groups of its own type). */
export const GroupSelect = ({ type, value, onChange, id }: Props) => {
  const { t } = useTranslation();
  const groups = useGroupOptions(type);
  return (
    <Select<number[]>
      id={id}
      mode="multiple"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={groups.isPending}
      value={value}
      onChange={onChange}
      placeholder={t('task.form.groupsPlaceholder')}
      notFoundContent={groups.isPending ? undefined : t('task.form.noGroups')}
      options={(groups.data?.items ?? []).map((group) => ({
        value: group.id,
        label: t('task.form.groupOption', { name: group.name, count: group.miner_count }),
      }))}
      data-testid="task-form-groups"
    />
  );
};
