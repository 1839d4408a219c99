import { useCan } from '../../lib/access';

/**
 * Whether the caller may add, edit and delete pool settings: the server's `manage` permission
 * (masters and administrators), read from the caller's rule list like every other page.
 */
export const useCanManagePools = (): boolean => useCan()('observerLinkCreate');
