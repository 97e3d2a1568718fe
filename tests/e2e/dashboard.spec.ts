// The dashboard's map on the offline base map: the first region is selected and kept in a
// cookie, entities are drawn (WebGL on the CPU), selecting one changes the address without a
// navigation and an address opened directly selects it, rotation and tilt survive a reload,
// attributes are edited with a confirmation ('No attribute value has changed' when nothing
// changed), and the page passes an axe scan and works below 992 px.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, graphql, login, mosquittoPub, users } from './helpers.ts';

/** The map's canvas has drawn (WebGL through SwiftShader) and the entities have loaded. */
async function mapReady(page: Page) {
  await expect(page.getByTestId('facility-map').locator('canvas.maplibregl-canvas')).toBeVisible();
  await expect(page.locator('.dashboard-map-loading')).toHaveCount(0, { timeout: 20_000 });
}


test('the first region is selected and kept in a cookie; the map draws the entities', async ({ page, context }) => {
  await login(page, users.cityAdmin);
  await page.goto('/dashboard');
  await mapReady(page);
  const region = page.getByTestId('region-select');
  await expect(region).toContainText(/\S/);
  const regionName = (await region.textContent())!.trim();
  const cookie = (await context.cookies()).find((entry) => entry.name === 'terrasight_region');
  expect(Number(cookie?.value)).toBeGreaterThan(0);
  // the region became the selected entity, shown in the panel
  await expect(page.getByTestId('entity-panel')).toContainText(regionName);
  await expect(page.getByTestId('sun-times')).toContainText(/\d{1,2}:\d{2}/);
  await expectNoAxeViolations(page, 'dashboard');

  await page.reload();
  await mapReady(page);
  await expect(page.getByTestId('region-select')).toContainText(regionName);
});

test('selecting an entity changes the address without a navigation; opening the address selects it; Back clears', async ({ page }) => {
  await login(page, users.cityAdmin);
  await page.goto('/dashboard');
  await mapReady(page);
  const search = page.getByRole('combobox', { name: 'Entity search by name' });
  await search.fill('zzzz-no-such-entity');
  await expect(page.getByText('Nothing found')).toBeVisible();
  await search.fill('Lamp');
  const option = page.locator('.ant-select-item-option').first();
  await expect(option).toBeVisible();
  const lampName = (await option.textContent())!.trim();
  // a mark on the window survives only if the page is not loaded again
  await page.evaluate(() => { (window as unknown as { stillHere: boolean }).stillHere = true; });
  await option.click();
  await expect(page).toHaveURL(/\/dashboard\/entity\/\d+$/);
  await expect(page.getByTestId('entity-panel')).toContainText(lampName);
  const address = page.url();
  await page.getByRole('button', { name: 'Detail' }).click();
  await expect(page).toHaveURL(`${address}/detail`);
  await expect(page.getByTestId('entity-attributes')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

  await page.goto(address);
  await mapReady(page);
  await expect(page.getByTestId('entity-panel')).toContainText(lampName);
  await expect(page.getByTestId('entity-telemetry')).toBeVisible(); // the demo history's latest values

  await page.getByRole('button', { name: 'Close the entity view' }).click();
  await expect(page).toHaveURL(/\/dashboard\/$/);
  await expect(page.getByTestId('entity-panel')).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(address);
  await expect(page.getByTestId('entity-panel')).toContainText(lampName);
});

test('a value published by mosquitto_pub appears on the selected device within a second', async ({ page, request }) => {
  const token = await apiToken(request, users.cityAdmin);
  const list = await (await request.get('/entity-list', { headers: { authorization: `Bearer ${token}` } })).json() as { id: number; entity_type: { category: string } }[];
  const lamp = list.find((entity) => entity.entity_type.category === 'lighting')!;
  const { entity_credentials: credentials } = await graphql<{ entity_credentials: { credentialsId: string } }>(request, token,
    'query ($id: ID!) { entity_credentials(id: $id) { credentialsId } }', { id: lamp.id });

  await login(page, users.cityAdmin);
  await page.goto(`/dashboard/entity/${lamp.id}`);
  await mapReady(page);
  await expect(page.getByTestId('entity-panel')).toBeVisible();
  await expect(page.getByTestId('ws-status')).toHaveAttribute('data-status', 'connected');
  await page.waitForTimeout(300); // the subscription reaches the server after the socket opens
  const power = String(1000 + Math.round(Math.random() * 8999) / 10);
  const sent = Date.now();
  await mosquittoPub(credentials.credentialsId, 'v1/devices/me/telemetry', JSON.stringify({ power: Number(power) }));
  await expect(page.getByTestId('telemetry-power')).toHaveText(power, { timeout: 1_000 });
  expect(Date.now() - sent).toBeLessThan(2_000); // mosquitto_pub's own start included
});

test('coloured by an attribute, the map draws another device\'s change live', async ({ page, request }) => {
  const token = await apiToken(request, users.cityAdmin);
  await login(page, users.cityAdmin);
  await page.goto('/dashboard');
  await mapReady(page);
  await page.getByTestId('colour-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: /^active$/ }).click();
  await mapReady(page);
  const regionId = Number(new URL(page.url()).pathname.split('/').pop());
  const { rows } = await (await request.get(`/map-features?region=${regionId}&attribute=active`, { headers: { authorization: `Bearer ${token}` } })).json();
  const [id, , , , , active] = rows.find((row: unknown[]) => Array.isArray(row[4]));
  const map = page.locator('[data-testid="facility-map"] .maplibregl-map');
  const before = Number(await map.getAttribute('data-patches') ?? 0);
  await graphql(request, token, 'mutation ($id: ID!, $attributes: JSON) { update_entity_attribute(id: $id, attributes: $attributes) { id } }',
    { id, attributes: { active: active !== true } });
  await expect.poll(async () => Number(await map.getAttribute('data-patches') ?? 0), { timeout: 1_000 }).toBeGreaterThan(before);
});

test('resting the pointer on a device shows its name and latest values', async ({ page }) => {
  test.setTimeout(60_000); // the pointer searches the map for a device
  await login(page, users.cityAdmin);
  await page.goto('/dashboard');
  await mapReady(page);
  const box = (await page.getByTestId('facility-map').locator('canvas.maplibregl-canvas').boundingBox())!;
  const card = page.getByTestId('hover-card');
  // look for a drawn entity around the region's centre, as a user moving the pointer would
  const map = page.locator('[data-testid="facility-map"] .maplibregl-map');
  for (let step = 0; step < 400; step++) { // a spiral out from the centre, 4 px a turn
    const angle = step * 0.5;
    const radius = angle * 1.3;
    await page.mouse.move(box.x + box.width / 2 + radius * Math.cos(angle), box.y + box.height / 2 + radius * Math.sin(angle));
    if (await map.getAttribute('data-hovered')) break;
  }
  await expect(card).toBeVisible();
  await expect(card).toContainText(/\S+/);
});

test('rotation and tilt are restored after a reload', async ({ page }) => {
  await login(page, users.cityAdmin);
  await page.goto('/dashboard');
  await mapReady(page);
  const canvas = page.getByTestId('facility-map').locator('canvas.maplibregl-canvas');
  const box = (await canvas.boundingBox())!;
  // right-drag rotates and tilts (MapLibre's drag-rotate / drag-pitch)
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down({ button: 'right' });
  await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 - 60, { steps: 10 });
  await page.mouse.up({ button: 'right' });
  await expect.poll(() => page.evaluate(() => Number(localStorage.getItem('terrasight.map.bearing')))).not.toBe(0);
  const stored = await page.evaluate(() => ({ bearing: localStorage.getItem('terrasight.map.bearing'), pitch: localStorage.getItem('terrasight.map.pitch') }));
  expect(Number(stored.pitch)).toBeGreaterThan(0);
  await page.reload();
  await mapReady(page);
  // the compass shows the restored rotation
  await expect(page.locator('.maplibregl-ctrl-compass .maplibregl-ctrl-icon')).toHaveAttribute('style', /rotate/);
  expect(await page.evaluate(() => ({ bearing: localStorage.getItem('terrasight.map.bearing'), pitch: localStorage.getItem('terrasight.map.pitch') }))).toEqual(stored);
});

test('attributes are edited with a confirmation; nothing changed says so', async ({ page }) => {
  await login(page, users.cityAdmin);
  await page.goto('/dashboard');
  await mapReady(page);
  const search = page.getByRole('combobox', { name: 'Entity search by name' });
  await search.fill('Lamp');
  await page.locator('.ant-select-item-option').first().click();
  await page.getByRole('button', { name: 'Detail' }).click();
  await page.getByRole('button', { name: 'Edit attributes' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('No attribute value has changed')).toBeVisible();

  const item = page.getByTestId('entity-panel').locator('.ant-form-item').filter({ has: page.getByRole('textbox') }).first();
  const field = item.getByRole('textbox');
  const label = await item.locator('.ant-form-item-label label').textContent();
  await field.fill('Edited by the browser test');
  await page.getByRole('button', { name: 'Save' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Save the changed attributes of');
  await expect(dialog).toContainText(label!.trim());
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(/was updated successfully/)).toBeVisible();
  await expect(page.getByTestId('entity-attributes')).toContainText('Edited by the browser test');
  await page.reload();
  await expect(page.getByTestId('entity-attributes')).toContainText('Edited by the browser test');
});

test('below 992 px the map and the panel are still there and usable', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await login(page, users.cityAdmin);
  await page.goto('/dashboard');
  await mapReady(page);
  const map = await page.getByTestId('facility-map').boundingBox();
  expect(map!.width).toBeGreaterThan(700);
  expect(map!.height).toBeGreaterThan(300);
  await expect(page.getByTestId('region-select')).toBeVisible();
  await expectNoAxeViolations(page, 'dashboard, narrow');
});
