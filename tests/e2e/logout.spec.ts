import { expect, test } from '@playwright/test';
import { login, logout, users } from './helpers.ts';

test('logging out from the user menu ends the session', async ({ page }) => {
  await login(page, users.cityAdmin);
  await logout(page);
  await expect(page.getByTestId('login-email')).toBeVisible();

  await page.goto('/applications');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/applications');
});
