import { enConsole } from './en-console';

/** English texts of the console's pages. Loaded with the first page after sign-in. */
export const texts: Record<string, string> = enConsole;
