import { expect, test } from '@playwright/test';
import { login, pathAndQuery, submitLogin, users } from './helpers.ts';

test.describe('access guard', () => {
  test('without a session a deep link leads to the login page and back after signing in', async ({ page }) => {
    await page.goto('/studio/zones?x=1');

    await expect(page).toHaveURL(/\/login\?/);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/login');
    expect(url.search).toBe('?redirect=%2Fstudio%2Fzones%3Fx%3D1');
    expect(url.searchParams.get('redirect')).toBe('/studio/zones?x=1');
    await expect(page.getByTestId('login-email')).toBeVisible();

    await submitLogin(page, users.cityAdmin, 'demo1234');
    await expect.poll(() => pathAndQuery(page), { timeout: 15_000 }).toBe('/studio/zones?x=1');
    await expect(page.getByTestId('navbar')).toBeVisible();
  });

  test('a signed-in user opening the login page lands on the applications', async ({ page }) => {
    await login(page, users.cityAdmin, '/login');
    await expect(page).toHaveURL(/\/applications$/);
    await expect(page.getByTestId('login-email')).toHaveCount(0);
  });

  test('the root path shows the applications', async ({ page }) => {
    await login(page, users.cityAdmin, '/');
    await expect(page).toHaveURL(/\/applications$/);
  });
});
