// The dashboard's map on the offline base map: the first region is selected and kept in a
// cookie, entities are drawn (WebGL on the CPU), selecting one changes the address without a
// navigation and an address opened directly selects it, rotation and tilt survive a reload,
// attributes are edited with a confirmation ('No attribute value has changed' when nothing
// changed), and the page passes an axe scan and works below 992 px.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { installClock, pauseClock, withinPageTime } from './clock.ts';
import { accessTokenOf, apiToken, colourBy, graphql, login, mosquittoPub, openFilters, users } from './helpers.ts';

/** The map's canvas has drawn (WebGL through SwiftShader) and the entities have loaded. */
async function mapReady(page: Page) {
  await expect(page.getByTestId('facility-map').locator('canvas.maplibregl-canvas')).toBeVisible();
  await expect(page.locator('.dashboard-map-loading')).toHaveCount(0, { timeout: 20_000 });
}

/** A street lamp of Demo City, and its access token (as those who may edit it see it). */
async function demoLamp(request: APIRequestContext) {
  const token = await apiToken(request, users.cityAdmin);
  const list = await (await request.get('/entity-list', { headers: { authorization: `Bearer ${token}` } })).json() as { id: number; entity_type: { category: string } }[];
  const lamp = list.find((entity) => entity.entity_type.category === 'lighting')!;
  return { lamp, accessToken: await accessTokenOf(request, token, lamp.id) };
}

// every test draws the map and the KPI widgets on SwiftShader: on two busy cores that takes its time
test.beforeEach(() => test.slow());

test('the first region is selected and kept in a cookie; the map draws the entities', async ({ page, context }) => {
  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  const region = page.getByTestId('region-select');
  await expect(region).toContainText(/\S/);
  const regionName = (await region.textContent())!.trim();
  const cookie = (await context.cookies()).find((entry) => entry.name === 'terrasight_region');
  expect(Number(cookie?.value)).toBeGreaterThan(0);
  // the region became the selected entity, shown in the panel
  await expect(page.getByTestId('entity-panel')).toContainText(regionName);
  await openFilters(page);
  await expect(page.getByTestId('sun-times')).toContainText(/\d{1,2}:\d{2}/);
  await expectNoAxeViolations(page, 'dashboard');

  await page.reload();
  await mapReady(page);
  await expect(page.getByTestId('region-select')).toContainText(regionName);
});

test('selecting an entity changes the address without a navigation; opening the address selects it; Back clears', async ({ page }) => {
  await login(page, users.cityAdmin, '/dashboard');
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

test('a value published by mosquitto_pub appears on the selected device live, before any poll', async ({ page, request }) => {
  const { lamp, accessToken } = await demoLamp(request);

  await installClock(page);
  await login(page, users.cityAdmin, `/dashboard/entity/${lamp.id}`);
  await mapReady(page);
  await expect(page.getByTestId('entity-panel')).toBeVisible();
  await expect(page.getByTestId('ws-status')).toHaveAttribute('data-status', 'connected');
  // the page's clock stands still but for the few steps it takes: no 30 s poll brings the value
  await pauseClock(page);
  const power = String(1000 + Math.round(Math.random() * 8999) / 10);
  await mosquittoPub(accessToken, 'v1/devices/me/telemetry', JSON.stringify({ power: Number(power) }));
  await withinPageTime(page, 10_000, () => expect(page.getByTestId('telemetry-power')).toHaveText(power, { timeout: 200 }));
  await page.clock.resume();
  // named as a person reads it, in the interface language (SPEC §1), not by its key
  const powerRow = page.getByTestId('entity-panel').locator('.ant-descriptions-row').filter({ has: page.getByTestId('telemetry-power') });
  await expect(powerRow.locator('.ant-descriptions-item-label')).toHaveText('Power');
});

test('coloured by an attribute, the map draws another device\'s change live', async ({ page, request }) => {
  const token = await apiToken(request, users.cityAdmin);
  await installClock(page);
  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  await openFilters(page);
  await colourBy(page, 'Connected');
  await mapReady(page);
  const regionId = Number(new URL(page.url()).pathname.split('/').pop());
  const { rows } = await (await request.get(`/map-features?region=${regionId}&attribute=active`, { headers: { authorization: `Bearer ${token}` } })).json();
  const [id] = rows.find((row: unknown[]) => Array.isArray(row[4]));
  const accessToken = await accessTokenOf(request, token, id);
  const map = page.locator('[data-testid="facility-map"] .maplibregl-map');
  const before = Number(await map.getAttribute('data-patches') ?? 0);
  // the device connects and leaves: the server flips its `active` (hand edits may not)
  await pauseClock(page); // no poll meanwhile: the change comes live
  await mosquittoPub(accessToken, 'v1/devices/me/telemetry', JSON.stringify({ power: 1 }));
  await withinPageTime(page, 10_000, async () => {
    expect(Number(await map.getAttribute('data-patches') ?? 0)).toBeGreaterThan(before);
  });
  await page.clock.resume();
});

test('resting the pointer on a device shows its name and latest values', async ({ page }) => {
  test.setTimeout(60_000); // the pointer searches the map for a device
  await login(page, users.cityAdmin, '/dashboard');
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
  await login(page, users.cityAdmin, '/dashboard');
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
  await login(page, users.cityAdmin, '/dashboard');
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

test("a device's connection attributes read as words and a time, and are not edited by hand", async ({ page, request }) => {
  const { lamp, accessToken } = await demoLamp(request);
  await mosquittoPub(accessToken, 'v1/devices/me/telemetry', JSON.stringify({ power: 1 })); // connects: active, lastActivityTime

  await login(page, users.cityAdmin, `/dashboard/entity/${lamp.id}/detail`);
  const attributes = page.getByTestId('entity-attributes');
  await expect(attributes).toContainText('lastActivityTime');
  await expect(attributes).toContainText(/Connected|Not connected/);
  await expect(attributes).not.toContainText(/\b1\d{12}\b/); // no epoch milliseconds
  await page.getByRole('button', { name: 'Edit attributes' }).click();
  const labels = page.getByTestId('entity-panel').locator('.ant-form-item-label label');
  await expect(labels.first()).toBeVisible();
  expect(await labels.allTextContents()).not.toEqual(expect.arrayContaining(['active']));
  expect(await labels.allTextContents()).not.toEqual(expect.arrayContaining(['lastActivityTime']));
});

test('below 992 px the map and the panel are still there and usable', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  const map = await page.getByTestId('facility-map').boundingBox();
  expect(map!.width).toBeGreaterThan(700);
  expect(map!.height).toBeGreaterThan(300);
  await expect(page.getByTestId('region-select')).toBeVisible();
  await expectNoAxeViolations(page, 'dashboard, narrow');
});

// ---- map filters, colouring, entity relations and the tree view ------------------------------

/** The map's element: renderedSummary.ts writes on it what the map shows once it has settled. */
const mapElement = (page: Page) => page.locator('[data-testid="facility-map"] .maplibregl-map');
const shown = async (page: Page, what: 'entities' | 'levels' | 'colours') => (await mapElement(page).getAttribute(`data-visible-${what}`)) ?? '';

interface ListedEntity { id: number; name: Record<string, string>; parent_id: number | null; entity_type_id: number; geom: { type: string; coordinates: [number, number] } | null }

/** The region the dashboard selects first (the first of the region type), as the API lists it. */
async function firstRegion(request: APIRequestContext, token: string): Promise<ListedEntity> {
  const headers = { authorization: `Bearer ${token}` };
  const types = await (await request.get('/entity-type-list', { headers })).json() as { id: number; attributes: { system_name?: string } }[];
  const regionType = types.find((type) => type.attributes.system_name === 'region')!;
  const [region] = await (await request.get(`/entity-list?type=${regionType.id}`, { headers })).json() as ListedEntity[];
  return region;
}

async function entitiesNamed(request: APIRequestContext, token: string, ids: number[]): Promise<ListedEntity[]> {
  return (await request.get(`/entity-list?ids=${ids.join(',')}`, { headers: { authorization: `Bearer ${token}` } })).json();
}

test('choosing a map level shows only the entities at that level; the choice is kept after a reload', async ({ page, request }) => {
  test.setTimeout(90_000); // the map is loaded several times
  const token = await apiToken(request, users.cityAdmin);
  const region = await firstRegion(request, token);
  const [longitude, latitude] = region.geom!.coordinates;
  const types = await (await request.get('/entity-type-list', { headers: { authorization: `Bearer ${token}` } })).json() as { id: number; name: string }[];
  await graphql(request, token, 'mutation ($type: Int!, $parent: Int, $name: JSON!, $geom: JSON, $level: Int) { create_entity(entity_type_id: $type, parent_id: $parent, name: $name, geom: $geom, level: $level) { id } }',
    { type: types.find((type) => type.name === 'Environment sensor')!.id, parent: region.id, name: { en: 'Mezzanine sensor' }, level: 3, geom: { type: 'Point', coordinates: [longitude + 0.0004, latitude + 0.0004] } });

  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  await expect.poll(() => shown(page, 'levels')).toMatch(/^0,(.+,)?3(,|$)/);
  expect(Number(await shown(page, 'entities'))).toBeGreaterThan(1);

  await openFilters(page);
  await page.getByTestId('level-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: /^Level 3$/ }).click();
  await expect.poll(() => shown(page, 'levels')).toBe('3');
  await expect.poll(() => shown(page, 'entities')).toBe('1');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await expectNoAxeViolations(page, 'dashboard, a map level chosen');

  await page.reload();
  await mapReady(page);
  await expect(page.getByTestId('level-select')).toContainText('Level 3');
  await expect.poll(() => shown(page, 'levels')).toBe('3');

  await page.getByTestId('level-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: /^All levels$/ }).click();
  await expect.poll(() => shown(page, 'levels')).toMatch(/^0,(.+,)?3(,|$)/);
});

test('a group chosen by keyboard draws its members in the group\'s colour, dims the rest and shows the legend; kept after a reload', async ({ page, request }) => {
  test.setTimeout(90_000); // the map is loaded several times
  const token = await apiToken(request, users.cityAdmin);
  const groups = await (await request.get('/group-list', { headers: { authorization: `Bearer ${token}` } })).json() as { name: string; attributes: { color: string } }[];
  const lighting = groups.find((group) => group.name === 'Lighting')!.attributes.color;

  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  await expect.poll(() => shown(page, 'colours')).not.toContain(lighting);
  await openFilters(page);
  const select = page.getByRole('combobox', { name: 'Groups' });
  await select.focus();
  await page.keyboard.type('Lighting');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0); // closed, not mid-animation, before the axe scan
  const legend = page.getByTestId('map-legend');
  await expect(legend).toContainText('Lighting');
  await expect(legend).toContainText('Other entities');
  await expect.poll(() => shown(page, 'colours')).toContain(lighting);
  await expect.poll(() => shown(page, 'colours')).toContain('#bfbfbf');
  await expectNoAxeViolations(page, 'dashboard, a group chosen');

  await page.reload();
  await mapReady(page);
  await expect(page.getByTestId('map-legend')).toContainText('Lighting');
  await expect.poll(() => shown(page, 'colours')).toContain(lighting);

  await page.getByRole('combobox', { name: 'Groups' }).focus();
  await page.keyboard.press('Backspace'); // takes the chosen group off
  await expect(page.getByTestId('map-legend')).toHaveCount(0);
  await expect.poll(() => shown(page, 'colours')).not.toContain(lighting);
});

test('a colouring rule recolours the entities whose value matches; a wrong number says so', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000); // the map is loaded several times
  const token = await apiToken(request, users.cityAdmin);
  const region = await firstRegion(request, token);
  const { rows } = await (await request.get(`/map-features?region=${region.id}`, { headers: { authorization: `Bearer ${token}` } })).json() as { rows: unknown[][] };
  const [lamp] = rows.find((row) => Array.isArray(row[4]) && row[3] !== region.id && row[6] === null)!;
  await graphql(request, token, 'mutation ($id: ID!, $attributes: JSON) { update_entity_attribute(id: $id, attributes: $attributes) { id } }',
    { id: lamp, attributes: { dim_level: 80 + testInfo.retry } }); // a retry changes it again

  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  await openFilters(page);
  await colourBy(page, 'Dim level');
  const rules = page.getByTestId('colour-rules');
  await expect(rules).toContainText('Colouring rules for Dim level');
  const value = rules.getByRole('textbox', { name: 'Value', exact: true });
  await value.fill('eighty');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await expect(rules).toContainText('Please input valid number');
  await expect(page.getByTestId('map-legend')).toHaveCount(0);

  await value.fill('50');
  await value.press('Enter'); // adds by keyboard
  const legend = page.getByTestId('map-legend');
  await expect(legend).toContainText('> 50');
  await expect(legend).toContainText('Other values');
  await expect(rules).not.toContainText('Please input valid number');
  await expect.poll(() => shown(page, 'colours')).toContain('#cf1322'); // the first rule's colour: red
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0);
  await expectNoAxeViolations(page, 'dashboard, a colouring rule');

  await page.reload();
  await mapReady(page);
  await expect(page.getByTestId('map-legend')).toContainText('> 50');
  await expect.poll(() => shown(page, 'colours')).toContain('#cf1322');
  await page.getByRole('button', { name: 'Remove the rule > 50' }).click();
  await expect(page.getByTestId('map-legend')).toHaveCount(0);
  await expect.poll(() => shown(page, 'colours')).not.toContain('#cf1322');
});

test('the entity view names its parent and children, each selecting that entity', async ({ page, request }) => {
  const token = await apiToken(request, users.cityAdmin);
  const region = await firstRegion(request, token);
  const { children } = await (await request.get(`/entity/${region.id}`, { headers: { authorization: `Bearer ${token}` } })).json() as { children: number[] };
  const [child] = await entitiesNamed(request, token, [children[0]]);

  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  const panel = page.getByTestId('entity-panel');
  await expect(panel).toContainText(region.name.en);
  await panel.getByTestId('entity-children').getByRole('button', { name: child.name.en, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/entity/${child.id}$`));
  await expect(panel).toContainText(child.name.en);
  await panel.getByTestId('entity-relations').getByRole('button', { name: region.name.en, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/entity/${region.id}$`));
});

test('the tree view opens from the entity view, loads levels as they open, searches by name and selects the chosen entity', async ({ page, request }) => {
  test.setTimeout(90_000); // the dashboard twice and the tree
  const token = await apiToken(request, users.cityAdmin);
  const region = await firstRegion(request, token);
  const zones = (await (await request.get(`/entity-list?ids=${region.id}&depth=1`, { headers: { authorization: `Bearer ${token}` } })).json() as ListedEntity[])
    .filter((entity) => entity.parent_id === region.id && entity.geom?.type === 'Polygon');
  const zone = zones[0];
  const { children: zoneChildren } = await (await request.get(`/entity/${zone.id}`, { headers: { authorization: `Bearer ${token}` } })).json() as { children: number[] };
  const [device] = await entitiesNamed(request, token, [zoneChildren[0]]);

  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  await page.getByTestId('entity-panel').getByRole('link', { name: 'Tree view' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/tree-view/${region.id}$`));
  await expect(page).toHaveTitle(/^Tree view \| /);
  const tree = page.getByTestId('entity-tree');
  await expect(tree).toContainText(region.name.en);
  await expect(tree).toContainText(zone.name.en);
  await expect(tree).toContainText('Zone'); // the type beside the name
  await expect(tree).not.toContainText(device.name.en); // its level is not loaded yet
  await expectNoAxeViolations(page, 'tree view');

  // a zone opens by keyboard: its devices are loaded then
  await page.getByTestId('tree-search').focus();
  await page.keyboard.press('Tab');
  const zoneNode = tree.locator('.ant-tree-treenode').filter({ hasText: zone.name.en });
  for (let step = 0; step < 20 && !(await zoneNode.evaluate((node) => node.classList.contains('ant-tree-treenode-active'))); step++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await expect(tree).toContainText(device.name.en);

  // the search looks through the whole subtree
  await page.getByTestId('tree-search').fill(device.name.en);
  await expect(tree.getByTestId('tree-node')).toHaveCount(1);
  await expect(tree).not.toContainText(zone.name.en);
  await page.getByTestId('tree-search').fill('zzzz-no-such-entity');
  await expect(page.getByText('Nothing found')).toBeVisible();
  await page.getByTestId('tree-search').fill(device.name.en);
  await expect(tree.getByTestId('tree-node')).toHaveCount(1);
  await page.getByTestId('tree-search').press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter'); // chooses the match
  await expect(page).toHaveURL(new RegExp(`/dashboard/entity/${device.id}$`));
  await mapReady(page);
  await expect(page.getByTestId('entity-panel')).toContainText(device.name.en);
});

test('the tree view of an unknown entity, or of another tenant\'s, says it was not found', async ({ page, request }) => {
  const facilityToken = await apiToken(request, users.facilityAdmin);
  const [facilityEntity] = await (await request.get('/entity-list', { headers: { authorization: `Bearer ${facilityToken}` } })).json() as ListedEntity[];
  await login(page, users.cityAdmin);
  for (const id of ['999999', String(facilityEntity.id), 'abc']) {
    await page.goto(`/dashboard/tree-view/${id}`);
    await expect(page.getByTestId('tree-not-found')).toContainText('Entity not found');
    await expect(page).toHaveTitle(/^Tree view \| /);
  }
  await expectNoAxeViolations(page, 'tree view, not found');
  await page.getByRole('button', { name: 'Back to the dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard\/?/);
});
