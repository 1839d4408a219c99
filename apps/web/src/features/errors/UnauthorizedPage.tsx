import { StopOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Result from 'antd/es/result';
import Space from 'antd/es/space';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Shown when a signed-in user lacks the role a page needs. */
export const UnauthorizedPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      // antd's 403 picture carries an English title; a plain icon says nothing untranslated.
      icon={<StopOutlined style={{ fontSize: 72, color: 'var(--ant-color-text-quaternary, #bfbfbf)' }} />}
      title="401"
      subTitle={t('errors.unauthorized.description')}
      extra={
        <Space>
          <Button onClick={() => navigate(-1)}>{t('errors.common.back')}</Button>
          <Button type="primary" onClick={() => navigate('/index')}>
            {t('errors.common.backHome')}
          </Button>
        </Space>
      }
    />
  );
};
