// The generated pages of the resource engine, driven like a tenant admin: create, edit and delete
// through the forms, against the real server.
import { expect, test, type Page } from '@playwright/test';
import { login, users } from './helpers.ts';

/** A label as the field shows it (a required field's label starts with '*'). */
const labelled = (label: string) => new RegExp(`^\\*?\\s*${label.replace(/[()]/g, '\\$&')}$`);

/** The form field labelled `label`. */
const field = (page: Page, label: string) => page.getByLabel(labelled(label));

/** Picks an option of the antd Select labelled `label`. */
async function choose(page: Page, label: string, option: string) {
  await page.getByRole('combobox', { name: labelled(label) }).click({ force: true }); // the selected value's text covers the input
  await page.locator('.ant-select-dropdown:visible').getByTitle(option, { exact: true }).click();
}

const uniqueName = (prefix: string) => `${prefix} ${Date.now().toString(36)}`;

test('an admin creates, edits and deletes a watcher', async ({ page }) => {
  await login(page, users.cityAdmin);
  await page.goto('/watcher');
  await expect(page.getByTestId('list-watcher')).toContainText('High temperature');
  await page.getByTestId('list-create').click();
  await expect(page).toHaveURL(/\/watcher\/create$/);
  await expect(page.getByTestId('form-watcher')).toBeVisible();

  const name = uniqueName('Humidity watch');
  await field(page, 'Name').fill(name);
  await field(page, 'Attribute key').fill('humidity');
  await choose(page, 'Operator', 'between');
  await field(page, 'Threshold').fill('40');
  await page.getByTestId('form-save').click();
  // between takes two values: the upper one is required
  await expect(page.getByText('Upper threshold is required')).toBeVisible();
  await field(page, 'Upper threshold').fill('70');
  await field(page, 'Interval (s)').fill('100000');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('The Interval (s) field must be 86400 or less')).toBeVisible();
  await field(page, 'Interval (s)').fill('120');
  await page.getByTestId('form-save').click();
  await expect(page.getByText(`${name} was created successfully`)).toBeVisible();
  await expect(page).toHaveURL(/\/watcher(\?|$)/);

  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toBeVisible();
  await row.getByTestId('row-edit').click();
  await expect(page.getByTestId('form-watcher')).toBeVisible();
  await expect(field(page, 'Name')).toHaveValue(name);
  await field(page, 'Name').fill(`${name} (edited)`);
  await page.getByTestId('form-save').click();
  await expect(page.getByText(`${name} (edited) was updated successfully`)).toBeVisible();

  const edited = page.getByRole('row', { name: new RegExp(`${name} \\(edited\\)`) });
  await edited.getByTestId('row-delete').click();
  await page.getByRole('button', { name: 'Delete', exact: true }).last().click();
  await expect(edited).toHaveCount(0);
});
