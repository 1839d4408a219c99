import { limits } from '@fbox/contracts';
import Cookies from 'js-cookie';

/** Cookie names of spec §2/§9. */
export const cookieNames = {
  token: limits.tokenCookie,
  language: limits.languageCookie,
  sidebarStatus: 'sidebarStatus',
} as const;

export const cookies = {
  get: (name: string): string | undefined => Cookies.get(name),
  set: (name: string, value: string): void => {
    Cookies.set(name, value, { sameSite: 'Lax', path: '/' });
  },
  remove: (name: string): void => Cookies.remove(name, { path: '/' }),
};
