import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

/** Unknown and not yet available pages end here (spec §2). */
export const NotFoundPage = () => {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="404"
      title="404"
      subTitle={t('errors.notFound.description')}
      extra={
        <Button type="primary" onClick={() => navigate('/index')}>
          {t('errors.common.backHome')}
        </Button>
      }
    />
  );
};
