import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../lib/browser.js';
import { ADMIN_PASSWORD, type RunningServer, startServer } from '../lib/server.js';
import { expireAllSessions, loginThroughForm } from '../lib/session.js';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('sign-in and the guard', () => {
  it('sends a deep link with a query to /login and back to the same path and query after login', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(`${server.url}/index?tab=summary&x=1`);
    await page.waitForURL(/\/login\?redirect=/);
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect).toBe('/index?tab=summary&x=1');

    await loginThroughForm(page, { expectPath: /\/index\?tab=summary&x=1$/ });
    await page.getByTestId('home-page').waitFor();
    expect(await page.getByTestId('home-mine-name').textContent()).toContain('Demo Mine');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the error for a wrong password and stays on /login', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await page.locator('#login_username').fill('admin');
    await page.locator('#login_password').fill('not-the-password');
    await page.getByTestId('login-submit').click();
    await page.getByText('Incorrect username, password or Google Authenticator code').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    await context.close();
  });

  it('sends a logged-in user from /login to the console, and unknown paths to /error/404', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page);
    await page.goto(`${server.url}/login`);
    await page.waitForURL(/\/index$/);
    await page.goto(`${server.url}/no/such/page`);
    await page.waitForURL(/\/error\/404$/);
    await context.close();
  });

  it('lands on /login when the session expires during use', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page);
    await page.waitForLoadState('networkidle');
    expect(expireAllSessions(server.dbFile)).toBeGreaterThan(0);
    // Calls now answer -9000 (once the server's 2 s session cache has let go of this session, or
    // after its first state-changing call): change the time zone, which saves to the profile. A
    // background refresh may notice first and leave the page before the click lands; either way
    // → /login. The message shows for 2 s, so it is watched for from before the click, which may
    // wait 5 s on a page that has already left.
    const told = page.getByText('Please log in again').first().waitFor();
    await page
      .getByTestId('tz-select')
      .click({ timeout: 5000 })
      .then(() => page.getByTitle('UTC+3').first().click({ timeout: 5000 }))
      .catch(() => undefined);
    await page.waitForURL(/\/login/);
    await told;
    await context.close();
  });

  it('says "Please log in again" once for a stale token, however many calls the page made', async () => {
    const { page, context } = await openPage(browser);
    await context.addCookies([{ name: 'Admin-Token', value: 'stale-token-0000', url: server.url }]);
    // Watched for from before the visit: the message shows for 2 s.
    const told = page.getByText('Please log in again', { exact: true }).first().waitFor();
    await page.goto(`${server.url}/index`);
    await page.waitForURL(/\/login/);
    await told;
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Please log in again', { exact: true }).count()).toBe(1);
    await context.close();
  });

  it('logs out after a successful password change; the new password then works', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/login`);
    await loginThroughForm(page);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('menu-password').click();
    await page.locator('#changePassword_oldpassword').fill(ADMIN_PASSWORD);
    await page.locator('#changePassword_password').fill('short');
    await page.locator('#changePassword_confirm').fill('short');
    await page.getByTestId('change-password-submit').click();
    await page.getByText('Please input a new password of at least 8 characters').first().waitFor();

    const next = 'Changed-pass9';
    await page.locator('#changePassword_password').fill(next);
    await page.locator('#changePassword_confirm').fill(next);
    await page.getByTestId('change-password-submit').click();
    await page.waitForURL(/\/login/);
    // One message: the success, not a "Please log in again" per request that was in flight.
    await page.getByText('Password changed, please log in again').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.locator('.ant-message-notice').count()).toBe(1);

    await loginThroughForm(page, { password: next });
    // Put the original password back so the other tests of this file keep working.
    const token = (await context.cookies()).find((c) => c.name === 'Admin-Token')?.value ?? '';
    const res = await fetch(`${server.url}/index/fbox.total/changepassword`, {
      method: 'POST',
      headers: { logintoken: token, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ oldpassword: next, password: ADMIN_PASSWORD }),
    });
    expect(((await res.json()) as { code: number }).code).toBe(1);
    await context.close();
  });
});
