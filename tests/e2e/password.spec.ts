import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DEMO_PASSWORD, login, logout, users } from './helpers.ts';

const NEW_PASSWORD = 'Facility-2026-new';

async function changePassword(page: Page, current: string, next: string, confirmation = next) {
  await page.getByTestId('current-password').fill(current);
  await page.getByTestId('new-password').fill(next);
  await page.getByTestId('confirm-password').fill(confirmation);
  await page.getByTestId('password-submit').click();
}

/** The demo password back, whatever the test got to (a later spec signs in with it). */
async function restoreDemoPassword(request: APIRequestContext, email: string) {
  const signedIn = await request.post('/auth/login', { data: { email, password: NEW_PASSWORD } });
  if (!signedIn.ok()) return; // never changed, or already put back
  const { access_token: token } = await signedIn.json() as { access_token: string };
  const restored = await request.post('/update-password', {
    headers: { authorization: `Bearer ${token}` },
    data: { input: { current_password: NEW_PASSWORD, password: DEMO_PASSWORD, password_confirmation: DEMO_PASSWORD } },
  });
  expect(restored.ok(), `putting the demo password back: ${restored.status()}`).toBe(true);
}

// Also after a failure: the password must not stay changed for the specs after this one.
test.afterEach(({ request }) => restoreDemoPassword(request, users.facilityAdmin));

test('changing the password checks the confirmation and the current password', async ({ page }) => {
  const email = users.facilityAdmin;
  await login(page, email, '/profile/password');
  await expect(page.getByTestId('sidebar')).toBeVisible();

  await changePassword(page, DEMO_PASSWORD, NEW_PASSWORD, `${NEW_PASSWORD}-typo`);
  await expect(page.getByText('Passwords do not match')).toBeVisible();

  await changePassword(page, 'wrong-current-password', NEW_PASSWORD);
  await expect(page.getByText('Invalid user password')).toBeVisible();

  // Eight spaces are refused in the form; a common password by the server, in words.
  await changePassword(page, DEMO_PASSWORD, ' '.repeat(8));
  await expect(page.getByText('The password cannot consist of spaces only')).toBeVisible();
  await changePassword(page, DEMO_PASSWORD, 'password123');
  await expect(page.getByTestId('password-error')).toHaveText('This password is too common. Choose one that is harder to guess.');

  await changePassword(page, DEMO_PASSWORD, NEW_PASSWORD);
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
  await expect(page).toHaveURL(/\/profile\/password$/); // no redirect after success

  // The new password signs in; the old one no longer does.
  await logout(page);
  await login(page, email, '/', NEW_PASSWORD);

  // Put the demo password back for anyone using this database afterwards.
  await page.goto('/profile/password');
  await changePassword(page, NEW_PASSWORD, DEMO_PASSWORD);
  await expect(page.getByText('Your password has been changed.')).toBeVisible();
});
