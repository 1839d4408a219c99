import Col from 'antd/es/col';
import Form from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { endAfterStartRule, requiredRule } from '../task-form';
import { ZonedDateTime } from './ZonedDateTime';

/** A task's start and end (spec §5: both required, start earlier than end), in the user's time zone. */
export const TaskWindowFields = () => {
  const { t } = useTranslation();
  const start = t('field.start_at');
  const end = t('field.end_at');
  return (
    <>
      <Col xs={24} md={12}>
        <Form.Item name="start_at" label={start} rules={[requiredRule(start)]}>
          <ZonedDateTime testId="task-form-start" />
        </Form.Item>
      </Col>
      <Col xs={24} md={12}>
        <Form.Item
          name="end_at"
          label={end}
          dependencies={['start_at']}
          rules={[requiredRule(end), endAfterStartRule]}
        >
          <ZonedDateTime testId="task-form-end" />
        </Form.Item>
      </Col>
    </>
  );
};
