/**
 * Navigation for code outside React (the API client). The app registers the router's navigate; until
 * then a full page load does the job.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigateTo: Navigate = (to) => window.location.assign(to);

export const setNavigator = (navigate: Navigate): void => {
  navigateTo = navigate;
};

export const navigate: Navigate = (to, options) => navigateTo(to, options);

/** `/login?redirect=<path + query>` for the page the visitor wanted. */
export const loginPath = (wanted?: string): string =>
  wanted && wanted !== '/' ? `/login?redirect=${encodeURIComponent(wanted)}` : '/login';

/** Only same-site paths are followed after login, never `//host` or absolute URLs. */
export const safeRedirect = (value: string | null | undefined): string | null =>
  value?.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') ? value : null;

export const currentPath = (): string => `${window.location.pathname}${window.location.search}`;
