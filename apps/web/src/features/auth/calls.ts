import type { LoginBody } from '@fbox/contracts';
import { call } from '../../lib/api';

/** Plain calls of the login page: no query cache needed (keeps /login light). */
export const login = (body: LoginBody) => call('login', body, { quietValidation: true });

export const logout = () => call('logout', {}, { silent: true });
