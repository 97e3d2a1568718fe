// The error toasts of SPEC §8/§9 against a server made to answer each case: the real server where
// it can (a wrong password, a write during read-only maintenance), and where it cannot be made to
// fail on purpose (a 500, a conflict with several errors, no answer at all) the same web app in
// front of a route that answers just that. A toast says the rule's text and is gone after 5 s.
import { expect, test, type Page } from '@playwright/test';
import { login, users } from './helpers.ts';

const toast = (page: Page) => page.locator('.ant-notification-notice');

/**
 * The toast shows `text`, and is gone about 5 s later (SPEC §9). `healed` runs once it shows: the
 * route answers as the real server again, so a refetch meanwhile cannot bring another toast.
 */
async function toastFor5s(page: Page, text: string | RegExp, healed: () => Promise<void>) {
  await expect(toast(page).filter({ hasText: text })).toBeVisible({ timeout: 20_000 }); // the page loads first
  const shown = Date.now();
  await healed();
  await expect(toast(page).filter({ hasText: text })).toHaveCount(0, { timeout: 9_000 });
  const lasted = Date.now() - shown;
  expect(lasted).toBeGreaterThan(3_500);
  expect(lasted).toBeLessThan(8_000);
}

test('401 and 400 invalid_grant: the first message of errors', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(users.cityAdmin);
  await page.getByTestId('login-password').fill('not the password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
});

test("500: the answer's error field; other statuses: the first error's message; both for 5 s", async ({ page }) => {
  test.slow();
  await login(page, users.cityAdmin);
  await page.route('**/watcher-list*', (route) => route.fulfill({
    status: 500, contentType: 'application/json',
    body: JSON.stringify({ error: 'The watcher service is restarting', errors: [{ code: 'X_UNKNOWN', message: 'not this one' }], request_id: 'r1' }),
  }));
  await page.goto('/watcher');
  await toastFor5s(page, /The watcher service is restarting/, () => page.unroute('**/watcher-list*'));

  await page.route('**/scheduler-list*', (route) => route.fulfill({
    status: 409, contentType: 'application/json', body: JSON.stringify({ errors: [{ code: 'X_FIRST', message: 'First of two problems' }, { code: 'X_SECOND', message: 'Second problem' }] }),
  }));
  await page.goto('/studio/scheduler');
  await toastFor5s(page, /First of two problems/, () => page.unroute('**/scheduler-list*'));
  await expect(toast(page).filter({ hasText: 'Second problem' })).toHaveCount(0);
});

test('no answer within 15 s: the generic text', async ({ page }) => {
  test.slow();
  await login(page, users.cityAdmin);
  // the request is held past the client's timeout, then let go
  await page.route('**/profile-list*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 17_000));
    await route.abort().catch(() => undefined);
  });
  const asked = Date.now();
  await page.goto('/studio/profiles');
  await expect(toast(page).filter({ hasText: 'Something went wrong while communicating with the server' })).toBeVisible({ timeout: 20_000 });
  const waited = Date.now() - asked;
  expect(waited).toBeGreaterThan(14_000);
});
