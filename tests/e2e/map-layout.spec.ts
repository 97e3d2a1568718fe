// The map pages laid out for their users: on the dashboard the chosen entity's card opens in view
// and the map flies to it (a device clicked on the map, the first match of a search taken with
// Enter), a chosen region is fitted in view, and the filters fold away; in the studio "Create",
// a device of the list or of the map and the search's first match open the form in view, and a
// region opened is fitted. At 1280 and 900 px wide, by keyboard (focus moves into an opened panel,
// Esc closes it and gives focus back), axe-clean.
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, login, users } from './helpers.ts';

const WIDE = { width: 1280, height: 800 };
const NARROW = { width: 900, height: 800 };

type LngLat = [number, number];
interface Listed { id: number; name: Record<string, string>; geom: { type: string; coordinates: unknown } | null; attributes: Record<string, unknown> }

const mapElement = (page: Page) => page.locator('[data-testid="facility-map"] .maplibregl-map');

async function mapReady(page: Page) {
  await expect(page.getByTestId('facility-map').locator('canvas.maplibregl-canvas')).toBeVisible();
  await expect(page.locator('.dashboard-map-loading')).toHaveCount(0, { timeout: 20_000 });
  await expect(mapElement(page)).toHaveAttribute('data-center', /\d/);
}

/** The camera the map element reports once it has moved: its centre and its bounds (west, south, east, north). */
async function camera(page: Page) {
  const numbers = async (name: string) => ((await mapElement(page).getAttribute(name)) ?? '').split(',').map(Number);
  const [longitude, latitude] = await numbers('data-center');
  const [west, south, east, north] = await numbers('data-bounds');
  return { center: [longitude, latitude] as LngLat, west, south, east, north };
}

/** Waits until the map's centre is (within about a metre) at a place. */
async function expectCentredOn(page: Page, [longitude, latitude]: LngLat) {
  await expect.poll(async () => {
    const { center } = await camera(page);
    return Math.max(Math.abs(center[0] - longitude), Math.abs(center[1] - latitude));
  }, { timeout: 10_000 }).toBeLessThan(2e-5);
}

/** The bounding box of a region's extent: its size (m) around its centre. */
function extentBox(centre: LngLat, size: number) {
  const dLat = size / 111_320;
  const dLng = dLat / Math.cos((centre[1] * Math.PI) / 180);
  return { west: centre[0] - dLng, east: centre[0] + dLng, south: centre[1] - dLat, north: centre[1] + dLat };
}

/** The map shows the whole extent, and the extent fills most of the map (fitted, not a small circle). */
async function expectFitted(page: Page, extent: ReturnType<typeof extentBox>) {
  await expect.poll(async () => {
    const view = await camera(page);
    const inside = view.west <= extent.west && view.east >= extent.east && view.south <= extent.south && view.north >= extent.north;
    const share = Math.max((extent.east - extent.west) / (view.east - view.west), (extent.north - extent.south) / (view.north - view.south));
    return inside && share > 0.6;
  }, { timeout: 10_000 }).toBe(true);
}

/** Where a place is on the screen (the map is not rotated: a fresh browser has no stored rotation). */
async function screenPoint(page: Page, [longitude, latitude]: LngLat) {
  // the camera was written at the map's present size (a panel closing beside it resizes it a frame later)
  await expect.poll(() => mapElement(page).evaluate((map: HTMLElement) => map.dataset.size === `${map.clientWidth}x${map.clientHeight}`)).toBe(true);
  await expect(mapElement(page)).toHaveAttribute('data-state', 'idle');
  const box = (await mapElement(page).boundingBox())!;
  const view = await camera(page);
  const mercator = (lat: number) => Math.log(Math.tan(Math.PI / 4 + (lat * Math.PI) / 360));
  return {
    x: box.x + ((longitude - view.west) / (view.east - view.west)) * box.width,
    y: box.y + ((mercator(view.north) - mercator(latitude)) / (mercator(view.north) - mercator(view.south))) * box.height,
  };
}

/** The element lies wholly in the viewport: seen without scrolling. */
async function expectWithinViewport(page: Page, locator: Locator) {
  const box = (await locator.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.y).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
  expect(Math.min(box.y + box.height, box.y + 200)).toBeLessThanOrEqual(viewport.height);
}

/** Nothing on the page is wider than the window. */
async function expectNoSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
}

async function listed(request: APIRequestContext, query: string): Promise<Listed[]> {
  const token = await apiToken(request, users.cityAdmin);
  return (await request.get(`/entity-list?${query}`, { headers: { authorization: `Bearer ${token}` } })).json();
}

async function regions(request: APIRequestContext) {
  const token = await apiToken(request, users.cityAdmin);
  const types = await (await request.get('/entity-type-list', { headers: { authorization: `Bearer ${token}` } })).json() as { id: number; attributes: { system_name?: string } }[];
  return listed(request, `type=${types.find((type) => type.attributes.system_name === 'region')!.id}`);
}

const focusedWithin = (locator: Locator) => locator.evaluate((node) => node.contains(document.activeElement));

for (const [size, viewport] of [['wide', WIDE], ['900 px', NARROW]] as const) {
  test(`dashboard, ${size}: a device clicked on the map opens its card in view, and the map centres on it`, async ({ page, request }) => {
    test.slow(); // the map drawn, a flight, the detail and an axe scan
    await page.setViewportSize(viewport);
    const [region] = await regions(request);
    const token = await apiToken(request, users.cityAdmin);
    const { rows } = await (await request.get(`/map-features?region=${region.id}`, { headers: { authorization: `Bearer ${token}` } })).json() as { rows: [number, number, number, number, unknown][] };
    const points = new Map(rows.filter((row) => Array.isArray(row[4]) && (row[4] as number[]).length === 2).map((row) => [row[0], row[4] as LngLat]));

    await login(page, users.cityAdmin, '/dashboard');
    await mapReady(page);
    await expectFitted(page, extentBox(region.geom!.coordinates as LngLat, region.attributes.size as number));
    // the KPI widgets folded away: the map takes their room, and its devices have room apart
    const folded = (await mapElement(page).boundingBox())!.height;
    await page.locator('#dashboard-widgets-title').click();
    await expect.poll(async () => (await mapElement(page).boundingBox())!.height).toBeGreaterThan(folded + 100);
    // two steps closer, so that the region's devices are drawn apart
    for (let step = 0; step < 2; step++) {
      const zoom = Number(await mapElement(page).getAttribute('data-zoom'));
      await page.getByRole('button', { name: 'Zoom in' }).click();
      await expect.poll(async () => Number(await mapElement(page).getAttribute('data-zoom'))).toBeGreaterThan(zoom + 0.5);
    }
    await mapReady(page);
    // a device drawn apart from the others, away from the centre, where nothing covers the map
    const onScreen = await Promise.all([...points].map(async ([deviceId, position]) => ({ deviceId, position, ...await screenPoint(page, position) })));
    const box = (await mapElement(page).boundingBox())!;
    const isFree = async ({ x, y }: { x: number; y: number }) =>
      page.evaluate(([px, py]) => !!document.elementFromPoint(px, py)?.classList.contains('maplibregl-canvas'), [x, y]);
    let chosen: (typeof onScreen)[number] | undefined;
    for (const candidate of onScreen) {
      const apart = onScreen.every((other) => other === candidate || Math.hypot(other.x - candidate.x, other.y - candidate.y) > 16);
      const offCentre = Math.hypot(candidate.x - (box.x + box.width / 2), candidate.y - (box.y + box.height / 2)) > 40;
      if (apart && offCentre && await isFree(candidate)) {
        chosen = candidate;
        break;
      }
    }
    const { deviceId, position, x, y } = chosen!;
    await page.mouse.click(x, y);
    await expect(page).toHaveURL(new RegExp(`/dashboard/entity/${deviceId}$`));
    const panel = page.getByTestId('entity-panel');
    await expect(panel).toBeVisible();
    await expectWithinViewport(page, panel);
    await expectCentredOn(page, position);
    await expectNoSidewaysScroll(page);

    // the detail widens the panel, it does not lengthen a column
    const before = (await panel.boundingBox())!;
    await panel.getByRole('button', { name: 'Detail' }).click();
    await expect(page.getByTestId('entity-attributes')).toBeVisible();
    await expect.poll(async () => (await panel.boundingBox())!.width).toBeGreaterThan(before.width);
    await expectWithinViewport(page, panel);
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page, `dashboard, ${size}, detail open`);
  });

  test(`dashboard, ${size}: Enter in the search selects the first match and flies there; Esc closes the card and gives focus back`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const [first] = await listed(request, 'search=lamp%201-2&per_page=20');
    await login(page, users.cityAdmin, '/dashboard');
    await mapReady(page);
    const search = page.getByRole('combobox', { name: 'Entity search by name' });
    await search.fill('lamp 1-2');
    await search.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/dashboard/entity/${first.id}$`));
    const panel = page.getByRole('region', { name: 'Selected entity' });
    await expect(panel).toContainText(first.name.en);
    await expectWithinViewport(page, panel);
    await expectCentredOn(page, first.geom!.coordinates as LngLat);
    expect(await focusedWithin(panel)).toBe(true);

    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(/\/dashboard\/$/);
    await expect(panel).toHaveCount(0);
    await expect(search).toBeFocused();
  });

  test(`dashboard, ${size}: choosing a region fits it in view`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const [, second] = await regions(request);
    await login(page, users.cityAdmin, '/dashboard');
    await mapReady(page);
    await page.getByTestId('region-select').click();
    await page.locator('.ant-select-item-option').filter({ hasText: second.name.en }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/entity/${second.id}$`));
    await expectFitted(page, extentBox(second.geom!.coordinates as LngLat, second.attributes.size as number));
    await expect(page.getByTestId('entity-panel')).toContainText(second.name.en);
  });
}

test('dashboard: the filters open by keyboard over the map, Esc folds them and gives focus back; kept folded or open after a reload', async ({ page }) => {
  await page.setViewportSize(NARROW);
  await login(page, users.cityAdmin, '/dashboard');
  await mapReady(page);
  const toggle = page.getByTestId('filters-toggle');
  const filters = page.getByRole('region', { name: 'Map filters' });
  await expect(filters).toHaveCount(0); // the map is whole at first
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  expect(await focusedWithin(filters)).toBe(true);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('combobox', { name: 'Map level' })).toBeFocused();
  await expectWithinViewport(page, filters);
  await expectNoSidewaysScroll(page);
  await expectNoAxeViolations(page, 'dashboard, 900 px, filters open');

  await page.reload();
  await mapReady(page);
  await expect(filters).toBeVisible();
  await filters.getByRole('combobox', { name: 'Map level' }).focus();
  await page.keyboard.press('Escape');
  await expect(filters).toHaveCount(0);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await page.reload();
  await mapReady(page);
  await expect(page.getByTestId('filters-toggle')).toHaveAttribute('aria-expanded', 'false');
  await expect(filters).toHaveCount(0);
});

for (const [size, viewport] of [['wide', WIDE], ['900 px', NARROW]] as const) {
  test(`studio, ${size}: "Create" and a device far down the list open the form in view, with focus; Esc closes it and gives focus back`, async ({ page, request }) => {
    test.slow(); // two forms opened, a flight and an axe scan
    await page.setViewportSize(viewport);
    await login(page, users.cityAdmin, '/studio/devices');
    const create = page.getByTestId('studio-create');
    await create.click();
    const editor = page.getByTestId('studio-editor');
    await expect(editor).toBeVisible();
    await expectWithinViewport(page, editor);
    expect(await focusedWithin(page.getByRole('region', { name: 'Create', exact: true }))).toBe(true);
    await page.keyboard.press('Escape');
    await expect(editor).toHaveCount(0);
    await expect(create).toBeFocused();

    const buttons = page.getByRole('complementary').locator('.ant-list-item').getByRole('button');
    await expect(buttons.nth(20)).toBeVisible();
    // the last one of the list that has a position
    const names = (await buttons.allTextContents()).map((text) => text.trim());
    let device: Listed | undefined;
    for (const candidate of names.reverse()) {
      [device] = await listed(request, `search=${encodeURIComponent(candidate)}`);
      if (device.geom) break;
    }
    const name = device!.name.en;
    const last = buttons.filter({ hasText: name }).first();
    await last.scrollIntoViewIfNeeded();
    await last.click();
    await expect(editor).toContainText(name);
    await expectWithinViewport(page, editor);
    expect(await focusedWithin(page.getByRole('region', { name, exact: true }))).toBe(true);
    // the map went to the device
    if (device!.geom!.type === 'Point') await expectCentredOn(page, device!.geom!.coordinates as LngLat);
    else {
      const ring = (device!.geom!.coordinates as LngLat[][])[0];
      const longitudes = ring.map(([longitude]) => longitude);
      const latitudes = ring.map(([, latitude]) => latitude);
      await expectCentredOn(page, [(Math.min(...longitudes) + Math.max(...longitudes)) / 2, (Math.min(...latitudes) + Math.max(...latitudes)) / 2]);
    }
    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page, `studio devices, ${size}, a device open`);
    await page.keyboard.press('Escape');
    await expect(editor).toHaveCount(0);
    await expect(last).toBeFocused();
  });
}

test('studio: a device clicked on the map opens its form in view; Enter in the search opens the first match', async ({ page, request }) => {
  await page.setViewportSize(NARROW);
  const [first] = await listed(request, 'search=lamp%201-2&per_page=50');
  await login(page, users.cityAdmin, '/studio/devices');
  const search = page.getByRole('searchbox', { name: 'Search by name' });
  await search.fill('lamp 1-2');
  await search.press('Enter');
  const editor = page.getByTestId('studio-editor');
  await expect(editor).toContainText(first.name.en);
  await expectCentredOn(page, first.geom!.coordinates as LngLat);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(editor).toHaveCount(0);

  // the map is on that lamp: a click there opens it again, from the map
  await expect(mapElement(page)).toHaveAttribute('data-state', 'idle');
  const { x, y } = await screenPoint(page, first.geom!.coordinates as LngLat);
  await page.mouse.click(x, y);
  await expect(editor).toContainText(first.name.en);
  await expectWithinViewport(page, editor);
});

test('studio: a region opened is fitted in view', async ({ page, request }) => {
  const [, second] = await regions(request);
  await login(page, users.cityAdmin, '/studio/regions');
  await expect(page.getByTestId('facility-map').locator('canvas.maplibregl-canvas')).toBeVisible();
  await page.getByRole('button', { name: second.name.en, exact: true }).click();
  await expect(page.getByTestId('studio-editor')).toContainText(second.name.en);
  await expectFitted(page, extentBox(second.geom!.coordinates as LngLat, second.attributes.size as number));
});
