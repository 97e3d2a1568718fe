import { expect, test } from '@playwright/test';
import { login, users } from './helpers.ts';

test('the websocket connects after signing in', async ({ page }) => {
  await login(page, users.cityAdmin);
  await expect(page.getByTestId('ws-status')).toHaveAttribute('data-status', 'connected', { timeout: 15_000 });
});
