// The error toasts of SPEC §8/§9 against a server made to answer each case: the real server where
// it can (a wrong password, a write during read-only maintenance), and where it cannot be made to
// fail on purpose (a 500, a conflict with several errors, no answer at all) the same web app in
// front of a route that answers just that. A toast says the rule's text and is gone after 5 s of
// the page's (fake) clock.
import { expect, test, type Page, type Route } from '@playwright/test';
import { expectToastFor, installClock, pageNow } from './clock.ts';
import { frameOriginsDialog, login, users } from './helpers.ts';

const toast = (page: Page) => page.locator('.ant-notification-notice');

// The toasts' 5 s and the HTTP client's 15 s run on the page's fake clock.
test.beforeEach(({ page }) => installClock(page));

/**
 * The toast shows `text` for 5 s (SPEC §9). `healed` runs once it shows: the route answers as the
 * real server again, so a refetch meanwhile cannot bring another toast.
 */
async function toastFor5s(page: Page, text: string | RegExp, healed: () => Promise<void>) {
  const notice = toast(page).filter({ hasText: text });
  await expect(notice).toBeVisible({ timeout: 20_000 }); // the page loads first
  await healed();
  await expectToastFor(page, notice, 5_000);
}

test('401 and 400 invalid_grant: the first message of errors', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(users.cityAdmin);
  await page.getByTestId('login-password').fill('not the password');
  await page.getByTestId('login-submit').click();
  await expect(page.getByText('Invalid email or password')).toBeVisible();
});

test("500: the answer's error field; other statuses: the first error's message; both for 5 s", async ({ page }) => {
  await page.route('**/watcher-list*', (route) => route.fulfill({
    status: 500, contentType: 'application/json',
    body: JSON.stringify({ error: 'The watcher service is restarting', errors: [{ code: 'X_UNKNOWN', message: 'not this one' }], request_id: 'r1' }),
  }));
  await login(page, users.cityAdmin, '/watcher');
  await toastFor5s(page, /The watcher service is restarting/, () => page.unroute('**/watcher-list*'));

  await page.route('**/scheduler-list*', (route) => route.fulfill({
    status: 409, contentType: 'application/json', body: JSON.stringify({ errors: [{ code: 'X_FIRST', message: 'First of two problems' }, { code: 'X_SECOND', message: 'Second problem' }] }),
  }));
  await page.goto('/studio/scheduler');
  await toastFor5s(page, /First of two problems/, () => page.unroute('**/scheduler-list*'));
  await expect(toast(page).filter({ hasText: 'Second problem' })).toHaveCount(0);
});

test('no answer within 15 s: the generic text', async ({ page }) => {
  const generic = toast(page).filter({ hasText: 'Something went wrong while communicating with the server' });
  // the list is asked for and never answered
  let held: Route | undefined;
  await page.route('**/profile-list*', (route) => {
    held ??= route;
  });
  const beforeAsking = Date.now(); // the page's clock starts at the real time
  await login(page, users.cityAdmin, '/studio/profiles');
  await expect.poll(() => held !== undefined, { timeout: 20_000 }).toBe(true);
  const asked = await pageNow(page); // at the latest
  // 14 s after the earliest it can have been asked, nothing yet; a second past the 15 s, the text
  await page.clock.pauseAt(Math.max(beforeAsking + 14_000, asked + 500));
  await expect(generic).toHaveCount(0);
  await page.clock.runFor(asked + 16_000 - await pageNow(page));
  await page.clock.resume();
  await expect(generic).toBeVisible();
  await held!.abort().catch(() => undefined);
});

test("a dialog's failed save is told like any failed request: the frame origins' refusal, for 5 s", async ({ page }) => {
  await page.route('**/tenant/iframe-origins', (route) => (route.request().method() === 'PUT'
    ? route.fulfill({ status: 409, contentType: 'application/json', body: JSON.stringify({ errors: [{ code: 'X_CHANGED', message: 'The origins were changed meanwhile' }] }) })
    : route.fallback()));
  await login(page, users.cityAdmin, '/performance-dashboard');
  const { dialog, input } = await frameOriginsDialog(page);
  await input.fill('https://status.toasts.example');
  await input.press('Enter');
  await dialog.getByTestId('frame-origins-save').click();
  await toastFor5s(page, 'The origins were changed meanwhile', () => page.unroute('**/tenant/iframe-origins'));
  await expect(dialog.getByTestId('frame-origins-saved')).toHaveCount(0); // nothing claims it was saved
});

test('a failed update names the record, not its model (SPEC §8)', async ({ page, request }) => {
  const token = await (await request.post('/auth/login', { data: { email: users.cityAdmin, password: 'demo1234' } })).json() as { access_token: string };
  const [watcher] = await (await request.get('/watcher-list', { headers: { authorization: `Bearer ${token.access_token}` } })).json() as { id: number; name: string }[];
  await page.route('**/update-watcher', (route) => route.fulfill({
    status: 409, contentType: 'application/json', body: JSON.stringify({ errors: [{ code: 'X_CONFLICT', message: 'Changed meanwhile by someone else' }] }),
  }));
  await login(page, users.cityAdmin, `/watcher/edit/${watcher.id}`);
  await expect(page.getByTestId('form-save')).toBeEnabled();
  await page.getByTestId('form-save').click();
  await toastFor5s(page, `Update of ${watcher.name} was not successful. See logs for details`, () => page.unroute('**/update-watcher'));
  await expect(toast(page).filter({ hasText: 'Update of Watcher' })).toHaveCount(0);
});
