import { useCan } from '../../lib/access';

/*
 * Who may do what on the task screens, by the endpoint permissions of contracts/tasks.ts read
 * through the caller's rule list: groups and tasks are created, edited and deleted with `manage`
 * (masters and administrators); tasks are started and stopped with `operate:taskControl`
 * (operators holding that rule too).
 */
export interface TaskAccess {
  manage: boolean;
  control: boolean;
}

/** The signed-in user's task permissions. */
export const useTaskAccess = (): TaskAccess => {
  const can = useCan();
  return { manage: can('rebootTaskAdd'), control: can('rebootTaskStart') };
};
