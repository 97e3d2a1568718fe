import { expect, test } from '@playwright/test';
import { submitLogin, users } from './helpers.ts';

test('a wrong password is refused with a clear message', async ({ page }) => {
  await page.goto('/login');
  await submitLogin(page, users.cityAdmin, 'not-the-password');
  await expect(page.getByText('Invalid email or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('the e-mail is trimmed before signing in', async ({ page }) => {
  await page.goto('/login');
  await submitLogin(page, `  ${users.cityAdmin}  `, 'demo1234');
  await expect(page).toHaveURL(/\/applications$/, { timeout: 15_000 });
});
