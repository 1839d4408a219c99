import {
  AreaIdsSchema,
  type Authority,
  authorities,
  limits,
  type OperatorRule,
  operatorRules,
  PasswordSchema,
  requiredText,
  type SubAccount,
  UsernameSchema,
} from '@fbox/contracts';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Switch from 'antd/es/switch';
import { useTranslation } from 'react-i18next';
import {
  EmailFormItem,
  joinMobile,
  MobileFormItem,
  type MobileValues,
  phoneOnNumber,
  splitMobile,
} from '../../../components/ContactFields';
import { schemaRule } from '../../../lib/form-rules';
import { showServerErrors } from '../../../lib/server-errors';
import { useAreaList } from '../../mines';
import { useCreateSubAccount, useEditSubAccount } from '../api-subaccount';
import { useAuthorityLabels, useRuleLabels } from './labels';

export interface SubAccountValues extends MobileValues {
  username: string;
  password?: string;
  nickname: string;
  email: string;
  enabled: boolean;
  authority: Authority;
  area_ids: number[];
  rules: OperatorRule[];
}

const toValues = (account?: SubAccount): Partial<SubAccountValues> => {
  if (!account) return { enabled: true, authority: 'operator', area_ids: [], rules: [] };
  return {
    username: account.username,
    nickname: account.nickname,
    ...splitMobile(account.mobile),
    email: account.email,
    enabled: account.status === 'enabled',
    authority: account.authority,
    area_ids: account.areas.map((area) => area.id),
    rules: account.rules,
  };
};

/** The server names the joined phone `mobile` and the switch `status`; the form has its own fields. */
const formField = (field: string) =>
  field === 'status' ? 'enabled' : phoneOnNumber(field).replace(/^area_ids\.\d+$/, 'area_ids');

/** What the form sends: the contract's fields (an empty password on edit keeps the old one). */
export const toBody = (values: SubAccountValues) => ({
  username: values.username.trim(),
  nickname: values.nickname.trim(),
  mobile: joinMobile(values),
  email: values.email.trim(),
  status: values.enabled ? ('enabled' as const) : ('disabled' as const),
  authority: values.authority,
  area_ids: values.area_ids,
  rules: values.authority === 'operator' ? values.rules : [],
});

const filled = (value: unknown) => typeof value === 'string' && value !== '';

/**
 * Create or edit a sub-account (spec §3): the same rules as the contract, server field errors on
 * their fields. Enter submits; rules are offered for operators only (administrators hold all).
 */
export const SubAccountFormDialog = ({ account, onClose }: { account?: SubAccount; onClose: () => void }) => {
  const { t } = useTranslation();
  const [form] = Form.useForm<SubAccountValues>();
  const authority = Form.useWatch('authority', form);
  const { data: areas = [], isPending: areasLoading } = useAreaList();
  const create = useCreateSubAccount();
  const edit = useEditSubAccount();
  const authorityLabels = useAuthorityLabels();
  const ruleLabels = useRuleLabels();
  const pending = create.isPending || edit.isPending;

  const onFinish = async (values: SubAccountValues) => {
    try {
      const body = toBody(values);
      if (account)
        await edit.mutateAsync({ id: account.id, ...body, password: values.password || undefined });
      else await create.mutateAsync({ ...body, password: values.password ?? '' });
      onClose();
    } catch (error) {
      // The API client has shown anything but field errors (a taken name).
      showServerErrors(form, error, { field: formField });
    }
  };

  return (
    <Modal
      open
      title={account ? t('set.sub.editTitle', { name: account.username }) : t('set.sub.createTitle')}
      onCancel={onClose}
      footer={null}
      maskClosable={false}
      destroyOnHidden
      width={640}
    >
      <Form
        form={form}
        name="subAccount"
        layout="vertical"
        initialValues={toValues(account)}
        onFinish={onFinish}
        data-testid="sub-account-form"
      >
        <Form.Item
          name="username"
          label={t('field.username')}
          required
          rules={[schemaRule(UsernameSchema, { label: t('field.username') })]}
        >
          <Input autoFocus autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('field.password')}
          required={!account}
          extra={account ? t('set.sub.passwordKeep') : t('set.sub.passwordHint')}
          rules={[
            schemaRule(PasswordSchema, { label: t('field.password'), when: account ? filled : undefined }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="nickname"
          label={t('field.nickname')}
          required
          rules={[schemaRule(requiredText(limits.nicknameMax), { label: t('field.nickname') })]}
        >
          <Input />
        </Form.Item>
        <MobileFormItem codeTestId="sub-mobile-code" />
        <EmailFormItem />
        <Form.Item name="enabled" label={t('set.sub.status')} valuePropName="checked">
          <Switch checkedChildren={t('set.sub.enabled')} unCheckedChildren={t('set.sub.disabled')} />
        </Form.Item>
        <Form.Item
          name="authority"
          label={t('field.authority')}
          rules={[{ required: true, message: t('common.form.choose', { field: t('field.authority') }) }]}
        >
          <Select
            options={authorities.map((value) => ({ value, label: authorityLabels[value] }))}
            data-testid="sub-authority"
          />
        </Form.Item>
        <Form.Item
          name="area_ids"
          label={t('field.area_ids')}
          required
          rules={[schemaRule(AreaIdsSchema, { label: t('field.area_ids') })]}
        >
          <Select
            mode="multiple"
            loading={areasLoading}
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('set.sub.chooseMines')}
            options={areas.map((area) => ({ value: area.id, label: area.area_name }))}
            data-testid="sub-areas"
          />
        </Form.Item>
        {authority === 'operator' && (
          <Form.Item name="rules" label={t('field.rules')} extra={t('set.sub.rulesHint')}>
            <Checkbox.Group
              options={operatorRules.map((value) => ({ value, label: ruleLabels[value] }))}
              data-testid="sub-rules"
            />
          </Form.Item>
        )}
        <Space style={{ width: '100%', justifyContent: 'flex-end' }}>
          <Button onClick={onClose}>{t('common.action.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={pending} data-testid="sub-account-save">
            {t('common.action.save')}
          </Button>
        </Space>
      </Form>
    </Modal>
  );
};
