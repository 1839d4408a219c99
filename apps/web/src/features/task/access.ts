import type { UserInfo } from '@fbox/contracts';
import { useUserInfo } from '../auth';

/*
 * Who may do what on the task screens (endpoint permissions in contracts/tasks.ts): groups and tasks
 * are created, edited and deleted with `manage`; tasks are started and stopped with
 * `operate:taskControl`. Until the session exposes its role and rules, the main account (is_masterID
 * 1) is the one known to hold both; swap these two for the rules hook once it exists.
 */
type Caller = Pick<UserInfo, 'is_masterID'> | undefined;

/** May create, edit and delete miner groups and tasks (masters and administrators). */
export const canManageTasks = (user: Caller): boolean => user?.is_masterID === 1;

/** May start and stop tasks (the taskControl rule). */
export const canControlTasks = (user: Caller): boolean => user?.is_masterID === 1;

export interface TaskAccess {
  manage: boolean;
  control: boolean;
}

/** The signed-in user's task permissions. */
export const useTaskAccess = (): TaskAccess => {
  const { data: user } = useUserInfo();
  return { manage: canManageTasks(user), control: canControlTasks(user) };
};
