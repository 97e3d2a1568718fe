import { expect, test } from '@playwright/test';
import { DASHBOARD_STATE_PREFIX, DEVICE_KEYS, SESSION_KEYS, isStoredKey } from '../../src/session/storedKeys.ts';
import { login, logout, users } from './helpers.ts';

test('logging out from the user menu ends the session', async ({ page }) => {
  await login(page, users.cityAdmin);
  await logout(page);
  await expect(page.getByTestId('login-email')).toBeVisible();

  await page.goto('/applications');
  await expect(page).toHaveURL(/\/login\?redirect=/);
  expect(new URL(page.url()).searchParams.get('redirect')).toBe('/applications');
});

test('the browser keeps only the stored keys of SPEC §9; logging out leaves the device preferences alone', async ({ page }) => {
  await login(page, users.cityAdmin, '/dashboard');
  await expect(page.getByTestId('navbar')).toBeVisible();
  await page.getByTestId('language-select').click();
  await page.getByTestId('language-option-de').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const keys = () => page.evaluate(() => Object.keys(window.localStorage).sort());
  await expect.poll(async () => (await keys()).some((key) => key.startsWith(DASHBOARD_STATE_PREFIX))).toBe(true);
  const stored = await keys();
  expect(stored.filter((key) => !isStoredKey(key))).toEqual([]);
  expect(stored).toEqual(expect.arrayContaining([SESSION_KEYS.accessToken, SESSION_KEYS.refreshToken, DEVICE_KEYS.language]));

  await page.getByTestId('user-menu').click();
  await page.getByTestId('logout').click();
  await expect(page).toHaveURL(/\/login(\?|$)/);
  const left = await keys();
  expect(left.filter((key) => key.startsWith(DASHBOARD_STATE_PREFIX) || (Object.values(SESSION_KEYS) as string[]).includes(key))).toEqual([]);
  expect(left).toContain(DEVICE_KEYS.language);
});
