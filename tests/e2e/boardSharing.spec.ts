// Sharing boards in the browser, against the real server: the admin shares a board with the
// operator to view through the share dialog (axe-scanned); the operator, in a second browser,
// sees it in the list and on its page and cannot arrange it; the admin removes the share and the
// operator's open page says so and leaves for a list without it, with no reload. A public-API
// board's list and page open for the admin with their kpi component.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, graphql, login, users } from './helpers.ts';

const shareDialog = (page: Page) => page.getByRole('dialog', { name: 'Share this board' });

test('a board shared to view, then unshared, live for its viewer', async ({ page, browser, request }) => {
  test.slow();
  const name = `Shared ${Date.now()}`;
  const token = await apiToken(request, users.cityAdmin);
  const { create_board: board } = await graphql<{ create_board: { id: string } }>(request, token,
    'mutation ($name: JSON) { create_board(name: $name) { id } }', { name: { en: name } });
  await graphql(request, token, 'mutation ($b: [Int!]) { create_component(name: "Notes", type: "richtext", definition: { html: "<p>Hello</p>" }, board_ids: $b) { id } }', { b: [Number(board.id)] });

  await login(page, users.cityAdmin, `/performance-dashboard/${board.id}`);
  await page.getByTestId('board-share').click();
  await expect(shareDialog(page)).toBeVisible();
  await expect(shareDialog(page)).toContainText('This board is not shared with anyone.');
  await page.getByTestId('share-requester').click();
  await page.locator('.ant-select-item-option', { hasText: 'operator@demo.city' }).click();
  await page.getByTestId('share-submit').click();
  await expect(page.getByTestId('share-outcome')).toContainText('The board is shared with');
  await expect(page.getByTestId('share-list')).toContainText('operator@demo.city');
  await expectNoAxeViolations(page, 'share dialog');

  const operatorContext = await browser.newContext();
  const operator = await operatorContext.newPage();
  await login(operator, users.cityOperator, '/performance-dashboard');
  const row = operator.getByTestId('row-open').filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(operator.getByTestId('list-board').locator('tr', { hasText: name }).getByTestId('tag-scopes')).toHaveText(['View']);
  await row.click();
  await expect(operator.getByRole('heading', { name })).toBeVisible();
  await expect(operator.getByTestId('board-item')).toHaveCount(1);
  await expect(operator.getByTestId('board-edit-toggle')).toHaveCount(0);
  await expect(operator.getByTestId('board-share')).toHaveCount(0);
  await expect(operator.locator('.board-item-handle')).toHaveCount(0);
  // the keys move nothing: the component keeps its place (its width follows the page's, which may settle meanwhile)
  const placeOf = async () => { const box = (await operator.getByTestId('board-item').boundingBox())!; return { x: box.x, y: box.y, height: box.height }; };
  const before = await placeOf();
  await operator.getByTestId('board-item').focus();
  for (const key of ['Enter', 'ArrowRight', 'ArrowDown', 'Enter']) await operator.keyboard.press(key);
  expect(await placeOf()).toEqual(before);
  await expect(operator.getByTestId('board-announcement')).toHaveText('');

  await page.getByTestId('share-row-remove').click();
  await expect(page.getByTestId('share-outcome')).toContainText('no longer has this board');
  await expect(operator.getByText('This board is no longer shared with you.').first()).toBeVisible();
  await expect(operator).toHaveURL(/\/performance-dashboard(\?|$)/);
  await expect(operator.getByTestId('list-board')).toBeVisible();
  await expect(operator.getByTestId('row-open').filter({ hasText: name })).toHaveCount(0);
  await operatorContext.close();
});

test('a public-API board opens for the admin with its kpi component', async ({ page }) => {
  await login(page, users.cityAdmin, '/public-api-dashboard');
  await expect(page.getByTestId('list-public_api_board')).toBeVisible();
  await page.getByTestId('row-open').first().click();
  await expect(page.getByTestId('board-page')).toBeVisible();
  await expect(page.locator('[data-testid="board-item"][data-type="kpi"]').first()).toBeVisible();
});
