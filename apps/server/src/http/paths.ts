/**
 * API paths: the legacy `/index/…`, the platform `/ff-plat-api/…` and both under `/api`. `/index`
 * itself (with or without a query) is the SPA's Home page, not the API.
 */
export const isApiPath = (url: string): boolean => {
  const path = url.split('?')[0] ?? '';
  return /^\/(api|ff-plat-api)(\/|$)/.test(path) || path.startsWith('/index/');
};
