import { PlusOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';

/** The primary "+ Create …" button at the head of a list. */
export const CreateButton = ({
  label,
  testId,
  onClick,
}: {
  label: string;
  testId: string;
  onClick: () => void;
}) => (
  <Button type="primary" icon={<PlusOutlined />} onClick={onClick} data-testid={testId}>
    {label}
  </Button>
);
