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

/**
 * Sets an alert rule of a mine in the server's SQLite database (the rule screens come later): for
 * tests that need real telemetry to raise an alert now.
 */
export const setAlertRule = (
  dbFile: string,
  areaId: number,
  metric: string,
  values: { threshold?: number; sustain_seconds?: number; enabled?: 0 | 1 },
): number => {
  const db = new Database(dbFile);
  try {
    const set = Object.keys(values)
      .map((key) => `${key} = @${key}`)
      .join(', ');
    return db
      .prepare(`UPDATE alert_rules SET ${set} WHERE area_id = @areaId AND metric = @metric`)
      .run({ ...values, areaId, metric }).changes;
  } finally {
    db.close();
  }
};
