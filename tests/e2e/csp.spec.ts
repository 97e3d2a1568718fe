// The Content-Security-Policy must not break the app: signing in, the shell, the websocket and
// the API docs run without a single CSP violation.
import { expect, test } from '@playwright/test';
import { login, users, watchViolations } from './helpers.ts';

test('sign-in, the shell and the websocket work under the CSP', async ({ page }) => {
  const violations = await watchViolations(page);
  const answer = await page.goto('/login');
  expect(answer?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
  await login(page, users.cityAdmin);
  await expect(page.getByTestId('ws-status')).toHaveAttribute('data-status', 'connected', { timeout: 15_000 });
  await page.goto('/profile/password');
  await expect(page.getByTestId('page-profile-password')).toBeVisible();
  expect(violations).toEqual([]);
});

test('the API docs work under the CSP', async ({ page }) => {
  const violations = await watchViolations(page);
  await page.goto('/api/docs');
  await expect(page.getByText('Terrasight API').first()).toBeVisible();
  expect(violations).toEqual([]);
});
