import Card from 'antd/es/card';
import { useTaskAccess } from './access';
import { TaskBoard } from './components/TaskBoard';
import { TempQueue } from './components/TempQueue';

/** Temperature-based mode tasks (/task/modeTask): queue, history and detail. */
export const ModeTaskPage = () => {
  const access = useTaskAccess();
  return (
    <Card>
      <TaskBoard
        family={{ family: 'temp' }}
        testId="temp"
        queue={(showTask) => <TempQueue access={access} onDetail={showTask} />}
      />
    </Card>
  );
};
