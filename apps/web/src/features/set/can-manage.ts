import { useUserInfo } from '../auth';

/**
 * Whether the caller may add, edit and delete pool settings (the server's `manage` permission:
 * masters and administrators). Until the caller's role reaches the web, only the master account
 * (`is_masterID` 1) is offered the buttons; the server refuses operators either way.
 */
export const useCanManagePools = (): boolean => useUserInfo().data?.is_masterID === 1;
