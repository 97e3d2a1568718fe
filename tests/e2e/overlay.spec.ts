// A region created in the studio with its GPS centre, colour and size, then its floor-plan image:
// uploaded (a wrong file refused), placed by dragging a corner and by the keyboard, scaled,
// locked, saved — and after a reload it is still there, locked, on the studio's map and on the
// dashboard's when the region is selected. Axe scans the editor.
import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, login, users } from './helpers.ts';
import { solidPng } from './png.ts';

interface Placement { corners: [number, number][]; locked: boolean }
const placementOf = async (page: Page): Promise<Placement | undefined> => {
  const text = await page.getByTestId('facility-map').locator('.maplibregl-map').getAttribute('data-overlay');
  return text ? JSON.parse(text) : undefined;
};

test('a region with its centre, colour and size, and its image overlay placed, scaled, locked and restored', async ({ page, request }) => {
  test.setTimeout(90_000); // a long walk through two pages and a reload
  const name = `Plan region ${Date.now().toString(36)}`; // its own on a retry
  await login(page, users.cityAdmin, '/studio/regions');
  await page.getByTestId('studio-create').click();
  const editor = page.getByTestId('studio-editor');
  await editor.getByRole('textbox').first().fill(name);
  await editor.getByRole('spinbutton', { name: 'Latitude' }).fill('48.1452');
  await editor.getByRole('spinbutton', { name: 'Longitude' }).fill('17.1091');
  await editor.getByRole('spinbutton', { name: 'Size (m)' }).fill('450');
  await editor.locator('.ant-color-picker-trigger').click();
  await page.locator('.ant-color-picker-hex-input input').fill('aa3355');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('overlay-editor')).toHaveCount(0);
  await expect(editor).toContainText('Save the region first; then you can add an image overlay.');
  await page.getByTestId('studio-save').click();
  await expect(page.getByText('was created successfully')).toBeVisible();

  const overlayEditor = page.getByTestId('overlay-editor');
  const input = overlayEditor.locator('input[type=file]');
  await input.setInputFiles({ name: 'plan.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(page.getByText('The image overlay must be a PNG, JPEG or WebP image.')).toBeVisible();
  await input.setInputFiles({ name: 'plan.png', mimeType: 'image/png', buffer: solidPng(40, 20, [0xfa, 0x8c, 0x16]) });
  await expect(page.getByText('Image uploaded. Place it by its corners, then save the region.')).toBeVisible();
  await expect.poll(() => placementOf(page)).toBeDefined();
  const first = (await placementOf(page))!;
  // about 200 m wide around the centre, half as high: the image's aspect
  expect(first.corners[0][0]).toBeLessThan(17.1091);
  expect(first.corners[1][0]).toBeGreaterThan(17.1091);
  const width = first.corners[1][0] - first.corners[0][0];
  const height = first.corners[0][1] - first.corners[3][1];
  expect((width * Math.cos((48.1452 * Math.PI) / 180) * 111_320) / (height * 110_574)).toBeCloseTo(2, 1);

  // drag the top-left corner up and to the left
  const handle = page.getByTestId('overlay-corner-0');
  const box = (await handle.boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x - 30, box.y - 20, { steps: 5 });
  await page.mouse.up();
  await expect.poll(async () => (await placementOf(page))!.corners[0][0]).toBeLessThan(first.corners[0][0]);
  const dragged = (await placementOf(page))!;
  expect(dragged.corners[0][1]).toBeGreaterThan(first.corners[0][1]);
  expect(dragged.corners.slice(1)).toEqual(first.corners.slice(1));
  // the keyboard moves a corner too: the bottom-right one to the right
  await page.getByTestId('overlay-corner-2').focus();
  await page.keyboard.press('Shift+ArrowRight');
  await expect.poll(async () => (await placementOf(page))!.corners[2][0]).toBeGreaterThan(dragged.corners[2][0]);

  await page.getByTestId('overlay-scale').fill('1.5');
  await page.getByTestId('overlay-scale').blur();
  await expect.poll(async () => (await placementOf(page))!.corners[1][0]).toBeGreaterThan(dragged.corners[1][0]);
  await page.getByTestId('overlay-lock').click();
  await expect(page.getByTestId('overlay-corner-0')).toHaveCount(0); // locked: no handles
  await expect(page.getByTestId('overlay-scale')).toBeDisabled();
  const locked = (await placementOf(page))!;
  expect(locked.locked).toBe(true);
  await expectNoAxeViolations(page, 'studio region with its image overlay');
  await page.getByTestId('studio-save').click();
  await expect(page.getByText('was updated successfully')).toBeVisible();

  // stored on the region, as placed
  const token = await apiToken(request, users.cityAdmin);
  const [region] = await (await request.get(`/entity-list?search=${encodeURIComponent(name)}`, { headers: { authorization: `Bearer ${token}` } })).json();
  expect(region.geom).toEqual({ type: 'Point', coordinates: [17.1091, 48.1452] });
  expect(region.attributes).toMatchObject({ color: '#aa3355', size: 450, overlay: { scale: 1.5, locked: true, url: expect.stringMatching(/^\/entity\/\d+\/overlay-image\?v=\d+$/) } });

  await page.reload();
  await page.getByRole('button', { name }).click();
  await expect.poll(() => placementOf(page)).toEqual(locked);
  await expect(page.getByTestId('overlay-lock')).toBeChecked();
  await expect(page.getByTestId('overlay-corner-0')).toHaveCount(0);

  // the dashboard draws the selected region's overlay
  await page.goto('/dashboard');
  await page.getByTestId('region-select').click();
  await page.locator('.ant-select-item-option').filter({ hasText: name }).click();
  await expect.poll(() => placementOf(page)).toEqual(locked);
});
