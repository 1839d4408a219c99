import { DeleteOutlined, SaveOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormModal } from '../../../components/FormModal';
import type { ListQueryState } from '../../../lib/use-list-query';
import {
  isShowing,
  type ListView,
  readViews,
  underHashingView,
  viewNameMax,
  viewNameProblem,
  viewOf,
  writeViews,
} from '../miner-views';

const BUILTIN = 'builtin:under-hashing';

interface Props {
  list: ListQueryState;
  /** Every filter key of the list: a view sets those it names and clears the others. */
  filterKeys: readonly string[];
  columnKeys: readonly string[];
  hidden: [string[], (next: string[]) => void];
}

/**
 * Views of the miner list: the built-in "Under-hashing" and the user's own, each a set of filters,
 * a sort and the columns shown. "Save view" keeps the list as it is now under a name.
 */
export const MinerViews = ({ list, filterKeys, columnKeys, hidden: [hidden, setHidden] }: Props) => {
  const { t } = useTranslation();
  const [modal, holder] = Modal.useModal();
  const [views, setViews] = useState<ListView[]>(readViews);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ name: string }>();
  const builtin = underHashingView(t('device.views.underHashing'), columnKeys);

  const store = (next: ListView[]) => {
    setViews(next);
    writeViews(next);
  };
  const apply = (view: ListView) => {
    const cleared = Object.fromEntries(filterKeys.map((key) => [key, undefined]));
    list.update({ filters: { ...cleared, ...view.filters }, sort: view.sort });
    setHidden(view.hidden);
  };
  const current = [builtin, ...views].find((view) => isShowing(view, list.query));
  const saved = current && current !== builtin ? current : undefined;

  const onSave = ({ name }: { name: string }) => {
    store([...views, viewOf(name, list.query, hidden)]);
    setSaving(false);
  };
  const onDelete = (view: ListView) =>
    void modal.confirm({
      title: t('device.views.deleteTitle', { name: view.name }),
      content: t('device.views.deleteContent'),
      okText: t('common.action.delete'),
      cancelText: t('common.action.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'miner-view-delete-ok' } as never,
      onOk: () => store(views.filter((other) => other !== view)),
    });

  return (
    <Space.Compact>
      {holder}
      <Select
        style={{ width: 200 }}
        placeholder={t('device.views.placeholder')}
        aria-label={t('device.views.placeholder')}
        data-testid="miner-views"
        value={current === builtin ? BUILTIN : current?.name}
        onChange={(value: string) => {
          const view = value === BUILTIN ? builtin : views.find((v) => v.name === value);
          if (view) apply(view);
        }}
        options={[
          { value: BUILTIN, label: builtin.name },
          ...views.map((view) => ({ value: view.name, label: view.name })),
        ]}
      />
      <Button
        icon={<SaveOutlined />}
        data-testid="miner-view-save"
        onClick={() => {
          form.resetFields();
          setSaving(true);
        }}
      >
        {t('device.views.save')}
      </Button>
      {saved && (
        <Button
          icon={<DeleteOutlined />}
          data-testid="miner-view-delete"
          aria-label={t('device.views.deleteTitle', { name: saved.name })}
          title={t('device.views.deleteTitle', { name: saved.name })}
          onClick={() => onDelete(saved)}
        />
      )}
      <FormModal
        open={saving}
        title={t('device.views.saveTitle')}
        form={form}
        saving={false}
        onClose={() => setSaving(false)}
      >
        <p>{t('device.views.saveHint')}</p>
        <Form form={form} name="minerView" layout="vertical" onFinish={onSave}>
          <Form.Item
            name="name"
            label={t('device.views.name')}
            required
            rules={[
              {
                validator: async (_rule, value?: string) => {
                  const problem = viewNameProblem(value ?? '', [builtin.name, ...views.map((v) => v.name)]);
                  if (problem) throw new Error(t(`device.views.${problem}`, { max: viewNameMax }));
                },
              },
            ]}
          >
            <Input autoFocus data-testid="miner-view-name" />
          </Form.Item>
        </Form>
      </FormModal>
    </Space.Compact>
  );
};
