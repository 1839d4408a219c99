/** Public parts of the auth feature that the app shell needs (kept light: the entry chunk loads them). */
export { fetchUserInfo, userInfoQuery, userKeys, useSetUserInfo, useUserInfo } from './api';
export { logout } from './calls';
