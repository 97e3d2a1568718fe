// The API users' page against the real server: the administrator creates an API user, copies its
// token once shown ('Copied!' for 5 s), the token reaches the public API's boards and nothing
// else; a wrong current password is refused, the right one changes it; deleting stops the token;
// the operator has no such page; axe on the page and the create dialog in English and Slovak.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { installClock, pauseClock } from './clock.ts';
import { login, users } from './helpers.ts';

const PATH = '/public-api-dashboard/api-users';
const FIRST_PASSWORD = 'Sensor-Gateway-71';
const NEXT_PASSWORD = 'Lamp-Controller-84';

async function createApiUser(page: Page, username: string) {
  await page.getByTestId('api-user-create').click();
  const form = page.getByTestId('api-user-create-form');
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password').fill(FIRST_PASSWORD);
  await form.getByLabel('Permissions').click();
  await page.locator('.ant-select-item-option', { hasText: 'public-api.board.*' }).click();
  await page.keyboard.press('Escape');
  await page.getByTestId('api-user-create-save').click();
  await expect(page.getByTestId('api-user-token-modal')).toBeVisible();
}

test('the administrator creates an API user, copies its token, changes its password and deletes it', async ({ page, context, request }) => {
  test.slow();
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await installClock(page);
  await login(page, users.cityAdmin);
  await page.getByTestId('sidebar').getByRole('menuitem', { name: 'API users' }).click();
  await expect(page).toHaveURL(new RegExp(`${PATH}$`));
  await expect(page.getByTestId('api-users-page')).toBeVisible();

  const username = `robot-${Date.now()}`;
  await createApiUser(page, username);
  const token = await page.getByTestId('api-user-token').inputValue();
  expect(token).toMatch(/^tsa_/);
  await expect(page.getByTestId('api-user-token-modal')).toContainText('it will not be shown again');
  const tenant = await page.getByTestId('api-user-tenant').inputValue();
  expect(tenant).toMatch(/^[0-9a-f-]{36}$/);

  const copy = page.getByTestId('api-user-token-copy');
  await expect(copy).toHaveText('Copy');
  await pauseClock(page); // 'Copied!' for 5 s of the page's clock
  await copy.click();
  await expect(copy).toHaveText('Copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await page.clock.runFor(4_900);
  await expect(copy).toHaveText('Copied!');
  await page.clock.runFor(200);
  await expect(copy).toHaveText('Copy');
  await page.clock.resume();
  const copiedToken = await page.evaluate(() => navigator.clipboard.readText());

  const bearer = { authorization: `Bearer ${copiedToken}` };
  expect((await request.get('/public-api-board-list', { headers: bearer })).status()).toBe(200);
  expect((await request.get('/entity-list', { headers: bearer })).status()).toBe(403);

  await page.getByTestId('api-user-token-close').click();
  const row = page.getByTestId('api-users-table').locator('tr', { hasText: username });
  await expect(row).toContainText('public-api.board.*');
  await expect(row.getByTestId('api-user-tokens')).toContainText(`${copiedToken.slice(0, 8)}`);

  // the password: a wrong current one is refused, the right one changes it and revokes the token
  await row.getByTestId('api-user-password').click();
  const passwordForm = page.getByTestId('api-user-password-form');
  await passwordForm.getByLabel('Current password').fill('Not-The-Password-1');
  await passwordForm.getByLabel('New password').fill(NEXT_PASSWORD);
  await page.getByTestId('api-user-password-save').click();
  await expect(passwordForm).toContainText('Wrong password');
  await passwordForm.getByLabel('Current password').fill(FIRST_PASSWORD);
  await page.getByTestId('api-user-password-save').click();
  await expect(page.locator('.ant-message')).toContainText('its tokens were revoked');
  expect((await request.get('/public-api-board-list', { headers: bearer })).status()).toBe(401);
  const relogin = await request.post('/public/auth/login', { data: { tenant, username, password: NEXT_PASSWORD } });
  expect(relogin.status()).toBe(200);
  const fresh = { authorization: `Bearer ${(await relogin.json()).access_token}` };
  expect((await request.get('/public-api-board-list', { headers: fresh })).status()).toBe(200);

  // deleting: confirmed, gone from the list, its token refused at once
  await row.getByTestId('api-user-delete').click();
  await page.getByTestId('api-user-delete-confirm').click();
  await expect(page.getByTestId('api-users-table').locator('tr', { hasText: username })).toHaveCount(0);
  expect((await request.get('/public-api-board-list', { headers: fresh })).status()).toBe(401);
});

test('the operator has no API users in the menu and is turned away from the page', async ({ page }) => {
  await login(page, users.cityOperator);
  await expect(page.getByTestId('sidebar').getByRole('menuitem', { name: 'API users' })).toHaveCount(0);
  await page.goto(PATH);
  await expect(page).toHaveURL(/\/applications$/);
  await expect(page.getByTestId('api-users-page')).toHaveCount(0);
});

for (const language of ['en', 'sk'] as const) {
  test(`the API users' page and its create dialog pass axe (${language})`, async ({ page }) => {
    await login(page, users.cityAdmin);
    if (language === 'sk') {
      await page.getByTestId('language-select').click();
      await page.getByTestId('language-option-sk').click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'sk');
    }
    await page.goto(PATH);
    await expect(page.getByTestId('api-users-page')).toBeVisible();
    await expectNoAxeViolations(page, 'API users');
    await page.getByTestId('api-user-create').click();
    await expect(page.getByTestId('api-user-create-form')).toBeVisible();
    await expectNoAxeViolations(page, 'create dialog');
  });
}
