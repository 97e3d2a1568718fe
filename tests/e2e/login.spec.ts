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

test('the refusal is shown in the interface language', async ({ page }) => {
  await page.goto('/login');
  await page.getByTestId('language-select').click();
  await page.getByTestId('language-option-de').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await submitLogin(page, 'nobody@demo.city', 'not-the-password');
  await expect(page.getByTestId('login-error')).toHaveText('Ungültige E-Mail-Adresse oder ungültiges Passwort');
});
