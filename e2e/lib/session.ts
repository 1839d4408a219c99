import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { ADMIN_PASSWORD, ADMIN_USER } from './server.js';

/** Signs in through the login form and waits until the console shows Home (or `expectPath`). */
export const loginThroughForm = async (
  page: Page,
  options: { username?: string; password?: string; expectPath?: RegExp } = {},
): Promise<void> => {
  await page.locator('#login_username').fill(options.username ?? ADMIN_USER);
  await page.locator('#login_password').fill(options.password ?? ADMIN_PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(options.expectPath ?? /\/index/);
};

/** Ages every session in the server's SQLite database past its expiry, as time would. */
export const expireAllSessions = (dbFile: string): number => {
  const db = new Database(dbFile);
  try {
    return db.prepare('UPDATE sessions SET expires_at = 0').run().changes;
  } finally {
    db.close();
  }
};
