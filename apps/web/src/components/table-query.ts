import type { ServerPage } from './ServerTable';

/** What ServerTable needs of the query behind it (a TanStack Query result fits). */
export interface TableQuery<T> {
  data?: ServerPage<T>;
  isFetching: boolean;
  isError: boolean;
  refetch: () => unknown;
}

/**
 * The ServerTable props that follow from its query: the page, a spinner only until the first page
 * came (a refresh keeps the rows on screen), and an error with Retry.
 */
export const tableQueryProps = <T>(query: TableQuery<T>) => ({
  page: query.data,
  loading: query.isFetching && !query.data,
  error: query.isError,
  onRetry: () => void query.refetch(),
});
