// Lighting in the browser, against the real server: the profile editor's day preview (drawn, it
// follows an added interval, names sunrise and sunset or the polar day and night, its date and
// place typed by keyboard), a lamp's lighting on the dashboard (an override set and ended through
// the UI by keyboard, the device's reported level posted over HTTP bringing "out of step" and
// taking it away, the lamps out of step selecting the lamp), the operator's view without the
// override control, and axe scans of both pages. The 17th interval's refusal is resources.spec.ts'.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { accessTokenOf, apiToken, labelled, login, users } from './helpers.ts';

/** A label as the form shows it (a required field's label starts with '*'). */

/** A street lamp of Demo City (the group Lighting follows "Night dimming"), and its access token. */
async function demoLamp(request: APIRequestContext, fromEnd: number) {
  const token = await apiToken(request, users.cityAdmin);
  const list = await (await request.get('/entity-list', { headers: { authorization: `Bearer ${token}` } })).json() as { id: number; name: { en: string }; entity_type: { category: string } }[];
  const lamp = list.filter((entity) => entity.entity_type.category === 'lighting').at(-fromEnd)!;
  return { id: lamp.id, name: lamp.name.en, accessToken: await accessTokenOf(request, token, lamp.id) };
}

/** The lamp reports its level as an HTTP device does. */
async function report(request: APIRequestContext, accessToken: string, level: number) {
  expect((await request.post(`/api/v1/${accessToken}/telemetry`, { data: { dim_level: level } })).ok()).toBe(true);
}

/** Types a date into the preview's date picker and confirms it with Enter. */
async function typeDate(page: Page, date: string) {
  const input = page.getByLabel('Date', { exact: true });
  await input.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type(date);
  await page.keyboard.press('Enter');
}

test('the profile editor previews the day: it follows an added interval, names sunrise and sunset, and says a polar day and night', async ({ page }) => {
  test.slow(); // a chart drawn on two busy cores, and an axe scan
  await login(page, users.cityAdmin, '/studio/profiles/create');
  const preview = page.getByTestId('timeline-preview');
  const chart = preview.getByTestId('kpi-chart');
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  await expect(chart).toHaveAttribute('data-plot', 'lines');
  await expect(preview).toContainText('Times in the time zone UTC.');
  await expect(preview.getByTestId('timeline-sun')).toHaveText(/^Sunrise \d\d:\d\d · Sunset \d\d:\d\d$/);
  const levels = preview.getByTestId('timeline-levels').getByRole('listitem');
  // a new profile: no astro clock, no interval — off all day
  await expect(levels).toHaveText(['00:00–24:00: 0 % (Off: no interval at this time)']);

  await page.getByTestId('add-definition.intervals').click();
  const item = page.getByTestId('definition.intervals-item');
  await expect(preview.getByTestId('timeline-incomplete')).toContainText('Intervals without a start or an end are left out: 1.');
  await item.getByLabel(labelled('From')).fill('18:00');
  await item.getByLabel(labelled('From')).press('Enter');
  await item.getByLabel(labelled('To')).fill('20:30');
  await item.getByLabel(labelled('To')).press('Enter');
  await item.getByLabel(labelled('Level (%)')).fill('70');
  await expect(levels).toHaveText([
    '00:00–18:00: 0 % (Off: no interval at this time)',
    '18:00–20:30: 70 % (Profile interval)',
    '20:30–24:00: 0 % (Off: no interval at this time)',
  ]);
  await expect(preview.getByTestId('timeline-incomplete')).toHaveCount(0);
  await expect(chart).toHaveAttribute('data-drawn', 'true');
  await expectNoAxeViolations(page, 'profile editor with its day preview');

  // far north, by keyboard: the sun does not set at midsummer and does not rise at midwinter
  const latitude = page.getByLabel('Latitude', { exact: true });
  await latitude.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('78.22');
  await page.keyboard.press('Tab');
  await typeDate(page, '2026-06-21');
  await expect(preview.getByTestId('timeline-sun')).toHaveText('The sun does not set on this day.');
  await expect(chart).toHaveAttribute('aria-label', /Level on 2026-06-21/);
  await typeDate(page, '2026-12-21');
  await expect(preview.getByTestId('timeline-sun')).toHaveText('The sun does not rise on this day.');
  // an emptied place gives a hint instead of a chart
  await latitude.fill('');
  await expect(preview.getByTestId('timeline-hint')).toContainText('Enter a latitude');
  await expect(chart).toHaveCount(0);
});

test('a lamp on the dashboard: desired against reported level, an override by keyboard, out of step and back, the lamps out of step', async ({ page, request }) => {
  test.slow(); // the map on SwiftShader, several round trips to the server and an axe scan
  const lamp = await demoLamp(request, 6);
  await login(page, users.cityAdmin, `/dashboard/entity/${lamp.id}`);
  const section = page.getByTestId('lamp-lighting');
  await expect(section.getByRole('heading', { name: 'Lighting' })).toBeVisible();
  await expect(section.getByTestId('lamp-profile')).toHaveText('Night dimming');
  await expect(section.getByTestId('lamp-profile')).toHaveAttribute('href', /\/studio\/profiles\/edit\/\d+$/);
  await expect(section).toContainText('(through the group Lighting)');

  // the override by keyboard: a level typed, a duration chosen with the arrow keys, Apply
  const control = section.getByRole('group', { name: 'Set the level by hand' });
  await control.getByRole('spinbutton', { name: 'Level (%)' }).focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('70');
  await page.keyboard.press('Tab');
  const duration = control.getByRole('combobox', { name: 'For' });
  await expect(duration).toBeFocused();
  await page.keyboard.press('ArrowDown'); // opens the list at the chosen duration (the list settles on it after opening)
  await expect(duration).toHaveAttribute('aria-activedescendant', /_list_1$/);
  await expect(async () => {
    await page.keyboard.press('ArrowDown');
    await expect(duration).toHaveAttribute('aria-activedescendant', /_list_2$/, { timeout: 500 });
  }).toPass();
  await page.keyboard.press('Enter');
  await expect(control.getByTestId('override-minutes')).toContainText('4 hours');
  await page.keyboard.press('Tab');
  await expect(control.getByRole('button', { name: 'Apply' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(control.getByRole('status')).toContainText('The lamp is at 70 % until');
  await expect(section.getByTestId('lamp-desired')).toHaveText('70 %');
  await expect(section.getByTestId('lamp-reason')).toHaveText('Manual override');
  await expect(section.getByTestId('lamp-override-until')).toContainText('70 % until');
  const commands = section.getByTestId('lamp-commands');
  await expect(commands.getByRole('row', { name: /Set level.*70 %/ }).first()).toBeVisible();
  await expect(commands.getByTestId('command-status').first()).toHaveText(/Queued|Sent|Delivered|Done/);

  // the lamp reports its level: in step; another one: out of step; its own again: in step
  const outOfStep = section.getByTestId('lamp-out-of-step');
  await report(request, lamp.accessToken, 70);
  await expect(section.getByTestId('lamp-reported')).toHaveText('70 %');
  await expect(outOfStep).toHaveCount(0);
  await report(request, lamp.accessToken, 20);
  await expect(section.getByTestId('lamp-reported')).toHaveText('20 %');
  await expect(outOfStep).toHaveText('Out of step');
  await expect(page.locator('.ant-select-dropdown:visible')).toHaveCount(0); // the duration's list closed, not mid-animation, before the axe scan
  await expectNoAxeViolations(page, 'dashboard, a lamp with its lighting, out of step');

  // listed among the lamps out of step; choosing it there selects it
  await page.goto('/dashboard');
  await page.getByTestId('drifting-toggle').click();
  const drifting = page.getByRole('region', { name: 'Lamps out of step' });
  const entry = drifting.getByTestId('drifting-lamp').filter({ hasText: lamp.name });
  await expect(entry).toContainText('Desired 70 % · reported 20 %');
  await entry.getByRole('button', { name: lamp.name }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/entity/${lamp.id}$`));
  await expect(section.getByTestId('lamp-out-of-step')).toBeVisible();

  await report(request, lamp.accessToken, 70);
  await expect(outOfStep).toHaveCount(0);

  // the end of the override, by keyboard: the lamp follows its profile again
  await section.getByRole('button', { name: 'End override' }).focus();
  await page.keyboard.press('Enter');
  await expect(control.getByRole('status')).toHaveText('The lamp follows its profile again.');
  await expect(section.getByTestId('lamp-override-until')).toHaveCount(0);
  await expect(section.getByTestId('lamp-reason')).not.toHaveText('Manual override');
});

test('the operator sees a lamp\'s lighting without the override control, and the profile without a link', async ({ page, request }) => {
  const lamp = await demoLamp(request, 7);
  await login(page, users.cityOperator, `/dashboard/entity/${lamp.id}`);
  const section = page.getByTestId('lamp-lighting');
  await expect(section.getByTestId('lamp-profile')).toHaveText('Night dimming');
  await expect(section.getByTestId('lamp-profile')).not.toHaveAttribute('href', /./);
  await expect(section.getByTestId('lamp-desired')).toHaveText(/\d+ %|Not decided yet/);
  await expect(section.getByTestId('lamp-reason')).not.toBeEmpty();
  await expect(section.getByTestId('lamp-override')).toHaveCount(0);
  await expect(section.getByRole('button', { name: 'Apply' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'dashboard, a lamp\'s lighting as the operator sees it');
});
