/**
 * The pages outside the console's layout (sign-in, errors, the big-screen boards): no sidebar and no
 * session check. The build hands this list to the server, which names the layout's files for a
 * browser to fetch early on every other page (build/console-preload.ts). `router.test.ts` keeps it
 * equal to the route table's.
 */
export const barePaths: readonly string[] = [
  '/login',
  '/auth-redirect',
  '/error/404',
  '/401',
  '/minerBigScreen',
  '/minerBoard',
  '/minerBoardTest',
  '/tankBoard',
  '/dataBoard',
  '/dataBoardNew',
];
