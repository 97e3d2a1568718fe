// KPI charts in the browser, against the real server and the demo data: the builder (defaults saved
// in a few steps, a live preview of all nine chart types, the colour-mapping refusals), the
// dashboard's widgets (nine types in English and Slovak, a comparison series, presets kept on the
// server across a reload, drawn one at a time in view order and at once on return), the operator
// (widgets yes, KPI editing no), names that stay text, axe.
import { expect, test, type APIRequestContext, type Page, type Route } from '@playwright/test';
import { kpiSchema } from '../../src/schemas/kpi.ts';
import { XSS_TEXT } from '../support/xssPayloads.ts';
import { expectNoAxeViolations } from './axe.ts';
import { apiToken, choose, formField, graphql, labelled, login, users } from './helpers.ts';

const CHART_TYPES = [
  ['bar', 'Bar'], ['stacked-bar', 'Stacked bar'], ['horizontal-bar', 'Horizontal bar'], ['line', 'Line'], ['pie', 'Pie'],
  ['donut', 'Donut'], ['gauge', 'Gauge'], ['data-table', 'Data table'], ['time-scale', 'Time scale'],
] as const;


/** The corpus less what a label may never hold (NUL, more than its schema allows: refused on save). */
const LABEL_MAX = kpiSchema.properties.query.items.properties.label.maxLength;
const PAYLOADS = XSS_TEXT.filter((payload) => !payload.includes('\u0000') && payload.length <= LABEL_MAX);

const drawnChart = (scope: ReturnType<Page['getByTestId']>) => scope.locator('[data-testid=kpi-chart][data-drawn=true]');

/** The demo city's entity type of environment sensors (they report temperature, humidity, CO₂). */
async function environmentType(request: APIRequestContext, token: string): Promise<number> {
  const answer = await request.get('/entity-type-list', { headers: { authorization: `Bearer ${token}` } });
  const types = (await answer.json()) as { id: number; attributes: { system_name?: string } | null }[];
  return types.find((type) => type.attributes?.system_name === 'environment')!.id;
}

async function createKpi(request: APIRequestContext, token: string, name: string, query: unknown[], definition: Record<string, unknown>): Promise<number> {
  const data = await graphql<{ create_kpi: { id: string } }>(request, token,
    'mutation($name: JSON, $query: JSON, $definition: JSON) { create_kpi(name: $name, query: $query, definition: $definition) { id } }',
    { name: { en: name, sk: `${name} (sk)` }, query, definition });
  return Number(data.create_kpi.id);
}

const deleteKpi = (request: APIRequestContext, token: string, id: number) =>
  graphql(request, token, 'mutation($id: ID!) { delete_kpi(id: $id) { id } }', { id });

interface Preset { id: string; items: { kpi_id: number; width: number }[] }

async function presetOf(request: APIRequestContext, token: string): Promise<Preset | undefined> {
  const data = await graphql<{ kpi_preset_list: Preset[] }>(request, token, '{ kpi_preset_list { id items } }');
  return data.kpi_preset_list[0];
}

const setPreset = (request: APIRequestContext, token: string, id: string, items: Preset['items']) =>
  graphql(request, token, 'mutation($id: ID!, $items: JSON) { update_kpi_preset(id: $id, items: $items) { id } }', { id, items });

/** A chart's definition that draws with a day of the demo's hourly history. */
const definitionOf = (chart: string) => ({
  chart, time_interval: '1h', time_range: '24h', width: 12, height: 220,
  ...(chart === 'gauge' ? { max: 100 } : {}),
});

test('a new KPI saves with its defaults in four steps, and the builder previews all nine chart types on real data', async ({ page }) => {
  test.setTimeout(90_000);
  await login(page, users.cityAdmin, '/studio/kpi');
  const name = `Builder ${Date.now().toString(36)}`;
  // 1 Create, 2 the name, 3 the key, 4 Save
  await page.getByTestId('list-create').click();
  await page.getByLabel('Name (English)').fill(name);
  await page.getByRole('combobox', { name: labelled('Attribute key') }).fill('temperature');
  await page.keyboard.press('Tab');
  const preview = page.getByTestId('kpi-preview');
  await expect(drawnChart(preview)).toHaveAttribute('data-chart-type', 'line', { timeout: 15_000 });
  await expectNoAxeViolations(page, 'KPI builder with its preview');
  await page.getByTestId('form-save').click();
  await expect(page.getByText(`${name} was created successfully`)).toBeVisible();

  await page.getByRole('row', { name: new RegExp(name) }).getByTestId('row-edit').click();
  await expect(drawnChart(preview)).toBeVisible({ timeout: 15_000 });
  for (const [type, label] of CHART_TYPES) {
    await choose(page, 'Chart type', label);
    if (type === 'gauge') await formField(page, 'Maximum').fill('40');
    // within half a second of the change the preview asks again; drawing is the browser's
    await expect(preview.locator(`[data-testid=kpi-chart][data-chart-type="${type}"][data-drawn=true]`)).toBeVisible({ timeout: 15_000 });
  }
  await page.getByTestId('form-delete').click();
  await page.getByRole('button', { name: 'Delete', exact: true }).last().click();
  await expect(page).toHaveURL(/\/studio\/kpi(\?|$)/);
  await expect(page.getByRole('row', { name: new RegExp(name) })).toHaveCount(0);
});

test('the colour mapping is refused in the browser with the words of SPEC §5 until it is whole', async ({ page, request }) => {
  const token = await apiToken(request, users.cityAdmin);
  const environment = await environmentType(request, token);
  const name = `CO2 mapping ${Date.now().toString(36)}`;
  const good = [
    { from: 0, to: 800, color: '#52c41a', property: 'co2', measure: 'ppm', label: 'Good' },
    { from: 800, to: 2000, color: '#f5222d', property: 'co2', measure: 'ppm', label: 'Poor' },
  ];
  const id = await createKpi(request, token, name, [{ key: 'co2', aggregation: 'latest-value', entity_type_ids: [environment] }],
    { chart: 'gauge', max: 2000, colour_mapping: good, out_of_bounds_color: '#8c8c8c' });
  try {
    await login(page, users.cityAdmin, `/studio/kpi/edit/${id}`);
    await expect(drawnChart(page.getByTestId('kpi-preview'))).toHaveAttribute('data-chart-type', 'gauge', { timeout: 15_000 });
    const ranges = page.getByTestId('definition.colour_mapping-item');
    await expect(ranges).toHaveCount(2);

    // the second range starts inside the first
    await ranges.nth(1).getByLabel(labelled('From')).fill('700');
    await page.getByTestId('form-save').click();
    await expect(page.getByText('Conditions that you entered are not valid').first()).toBeVisible();
    // a range without its bound
    await ranges.nth(1).getByLabel(labelled('From')).fill('');
    await page.getByTestId('form-save').click();
    await expect(page.getByText('Fill in conditions to continue').first()).toBeVisible();
    // whole again, but the gauge's scale no longer ends where the ranges do
    await ranges.nth(1).getByLabel(labelled('From')).fill('800');
    await formField(page, 'Maximum').fill('2500');
    await page.getByTestId('form-save').click();
    await expect(page.getByText('The last value must equal the chart maximum').first()).toBeVisible();
    await formField(page, 'Maximum').fill('2000');
    await page.getByTestId('form-save').click();
    await expect(page.getByText(`${name} was updated successfully`)).toBeVisible();
  } finally {
    await deleteKpi(request, token, id);
  }
});

test('the dashboard shows all nine chart types in English and Slovak; a comparison series is its own series; two value axes', async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, users.cityAdmin);
  const environment = await environmentType(request, token);
  const preset = (await presetOf(request, token))!;
  const ids: number[] = [];
  try {
    for (const [type] of CHART_TYPES) {
      const temperature = { key: 'temperature', aggregation: 'avg', entity_type_ids: [environment] };
      // the time scale reads humidity on a second axis of its own
      const query = type === 'time-scale' ? [temperature, { key: 'humidity', aggregation: 'avg', entity_type_ids: [environment], y_axis: 'right' }] : [temperature];
      ids.push(await createKpi(request, token, `Nine ${type}`, query, {
        ...definitionOf(type),
        ...(type === 'line' ? { compare: { compare_shift: 'days', compare_by: 1 } } : {}),
      }));
    }
    await setPreset(request, token, preset.id, ids.map((kpi_id) => ({ kpi_id, width: 8 })));
    await login(page, users.cityAdmin, '/dashboard');
    const widgets = page.getByTestId('kpi-widget');
    await expect(widgets).toHaveCount(9);
    for (const [index, [type]] of CHART_TYPES.entries()) {
      const widget = widgets.nth(index);
      await widget.scrollIntoViewIfNeeded();
      await expect(drawnChart(widget)).toHaveAttribute('data-chart-type', type, { timeout: 15_000 });
      await expect(widget).toContainText(`Nine ${type}`);
    }
    // the line has the day before beside it: two series, one named as compared
    await expect(widgets.nth(3).getByTestId('kpi-chart')).toHaveAttribute('data-series-count', '2');
    await expect(widgets.nth(3).getByTestId('kpi-chart')).toHaveAttribute('data-value-axes', '1');
    await expect(widgets.nth(8).getByTestId('kpi-chart')).toHaveAttribute('data-value-axes', '2');
    await expect(widgets.nth(8).getByTestId('kpi-chart')).toHaveAttribute('data-series-count', '2');
    await expectNoAxeViolations(page, 'dashboard with nine KPI widgets');
    // the line's legend by keyboard: Space hides the comparison from the plot, Enter shows it again
    const line = widgets.nth(3);
    const compared = line.getByTestId('kpi-legend').getByRole('button', { name: /\(compared\)$/ });
    await compared.focus();
    await page.keyboard.press('Space');
    await expect(compared).toHaveAttribute('aria-pressed', 'false');
    await expect(line.locator('path[data-role=series]')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(compared).toHaveAttribute('aria-pressed', 'true');
    await expect(line.locator('path[data-role=series]')).toHaveCount(2);

    await page.getByTestId('language-select').click();
    await page.getByTestId('language-option-sk').click();
    await expect(widgets.first()).toContainText('Nine bar (sk)');
    for (const [index, [type]] of CHART_TYPES.entries()) {
      await widgets.nth(index).scrollIntoViewIfNeeded();
      await expect(drawnChart(widgets.nth(index))).toHaveAttribute('data-chart-type', type, { timeout: 15_000 });
    }
    await expect(widgets.nth(7)).toContainText('Teplota'); // the data table names the key in Slovak
    await expect(widgets.nth(3).locator('[role=figure][data-plot][aria-label*="graf"]')).toHaveCount(1);
  } finally {
    await setPreset(request, token, preset.id, preset.items);
    for (const id of ids) await deleteKpi(request, token, id);
  }
});

test('presets are kept on the server: a removed widget stays removed after a reload, and comes back when added', async ({ page, request }) => {
  const token = await apiToken(request, users.cityAdmin);
  const preset = (await presetOf(request, token))!;
  try {
    await login(page, users.cityAdmin, '/dashboard');
    const widgets = page.getByTestId('kpi-widget');
    await expect(widgets).toHaveCount(preset.items.length);
    const first = widgets.first();
    const name = (await first.locator('.ant-card-head-title').textContent())!;
    await first.getByTestId('kpi-widget-remove').click();
    await expect(widgets).toHaveCount(preset.items.length - 1);
    await expect.poll(async () => (await presetOf(request, token))!.items.length).toBe(preset.items.length - 1);
    await page.reload();
    await expect(widgets).toHaveCount(preset.items.length - 1);
    await expect(page.getByTestId('kpi-widgets')).not.toContainText(name);

    await page.getByRole('combobox', { name: 'Choose a KPI' }).click({ force: true });
    await page.locator('.ant-select-dropdown:visible').getByTitle(name, { exact: true }).click();
    await page.getByTestId('kpi-widget-add').click();
    await expect(widgets).toHaveCount(preset.items.length);
    await expect(widgets.last()).toContainText(name);
  } finally {
    await setPreset(request, token, preset.id, preset.items);
  }
});

test('the operator sees the KPI widgets but cannot open the KPI builder', async ({ page }) => {
  await login(page, users.cityOperator, '/dashboard');
  await expect(drawnChart(page.getByTestId('kpi-widgets')).first()).toBeVisible({ timeout: 15_000 });
  await page.goto('/studio/kpi/create');
  await expect(page.getByTestId('form-kpi')).toHaveCount(0);
  await expect(page).not.toHaveURL(/\/studio\/kpi\/create/);
});

test('names and labels full of markup stay text in every chart type and its tooltip', async ({ page, request }) => {
  test.setTimeout(120_000);
  const token = await apiToken(request, users.cityAdmin);
  const environment = await environmentType(request, token);
  const preset = (await presetOf(request, token))!;
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const ids: number[] = [];
  try {
    for (const [index, [type]] of CHART_TYPES.entries()) {
      // twenty of the corpus per chart, every payload in several charts
      const labels = Array.from({ length: 20 }, (_v, n) => PAYLOADS[(index * 20 + n) % PAYLOADS.length]);
      ids.push(await createKpi(request, token, `${PAYLOADS[index]} ${type}`,
        labels.map((label) => ({ label, key: 'temperature', aggregation: 'avg', entity_type_ids: [environment] })), definitionOf(type)));
    }
    await setPreset(request, token, preset.id, ids.map((kpi_id) => ({ kpi_id, width: 12 })));
    await login(page, users.cityAdmin, '/dashboard');
    const widgets = page.getByTestId('kpi-widget');
    await expect(widgets).toHaveCount(9);
    for (let index = 0; index < 9; index++) {
      const widget = widgets.nth(index);
      await widget.scrollIntoViewIfNeeded();
      await expect(drawnChart(widget)).toBeVisible({ timeout: 15_000 });
      // the pointer across the chart opens its tooltip
      const box = (await widget.getByTestId('kpi-chart').boundingBox())!;
      for (const share of [0.3, 0.5, 0.7]) await page.mouse.move(box.x + box.width * share, box.y + box.height * 0.5);
    }
    await expect(widgets.first()).toContainText(`${PAYLOADS[0]} bar`);
    expect(dialogs).toEqual([]);
    expect(await page.evaluate(() => document.querySelectorAll('[data-testid=kpi-widgets] img[src="x"], [data-testid=kpi-widgets] iframe, [data-testid=kpi-widgets] [onerror], [data-testid=kpi-widgets] [onload]').length)).toBe(0);
  } finally {
    await setPreset(request, token, preset.id, preset.items);
    for (const id of ids) await deleteKpi(request, token, id);
  }
});

test('the widgets draw one at a time, those in view first; back on the dashboard each shows its last answer before any new one comes', async ({ page }) => {
  // when each chart turned drawn, and whether it was in the widgets area's view then
  await page.addInitScript(() => {
    const drawn: { id: string; at: number; inView: boolean }[] = [];
    (window as unknown as { drawnWidgets: typeof drawn }).drawnWidgets = drawn;
    new MutationObserver((records) => {
      for (const { target } of records) {
        const chart = target as Element;
        if (chart.getAttribute('data-drawn') !== 'true' || !chart.hasAttribute('data-plot')) continue;
        const widget = chart.closest('[data-testid=kpi-widget]')!;
        const area = document.getElementById('dashboard-widgets-body')!.getBoundingClientRect();
        const box = widget.getBoundingClientRect();
        drawn.push({ id: widget.getAttribute('data-kpi-id')!, at: performance.now(), inView: box.bottom > area.top && box.top < area.bottom });
      }
    }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-drawn'] });
  });
  await login(page, users.cityAdmin, '/dashboard');
  const drawnPlots = page.locator('[data-testid=kpi-chart][data-plot][data-drawn=true]');
  // every chart has its data (no spinner left), and every plot among them drew
  await expect(page.getByTestId('kpi-widgets')).toBeVisible();
  await expect(page.getByTestId('kpi-widgets').locator('.ant-spin')).toHaveCount(0, { timeout: 30_000 });
  const plots = await page.locator('[data-testid=kpi-chart][data-plot]').count();
  await expect(drawnPlots).toHaveCount(plots);
  const order = await page.evaluate(() => (window as unknown as { drawnWidgets: { id: string; at: number; inView: boolean }[] }).drawnWidgets);
  expect(order).toHaveLength(plots);
  expect(plots).toBeGreaterThan(order.filter((chart) => chart.inView).length); // some are out of view
  const firstOutOfView = order.findIndex((chart) => !chart.inView);
  expect(order.slice(firstOutOfView).every((chart) => !chart.inView), JSON.stringify(order)).toBe(true);
  // one at a time: no two turned drawn in the same moment
  expect(new Set(order.map((chart) => chart.at)).size).toBe(order.length);

  // away and back within the app: the answers are the ones kept; the new ones are held meanwhile
  const drawnCount = await drawnPlots.count();
  await page.getByTestId('sidebar').getByRole('menuitem', { name: 'Logs' }).click();
  await expect(page.getByTestId('kpi-widgets')).toHaveCount(0);
  const held: Route[] = [];
  await page.route('**/kpi-data?*', (route) => { held.push(route); });
  await page.goBack();
  await expect(drawnPlots).toHaveCount(drawnCount, { timeout: 30_000 });
  expect(held.length).toBeGreaterThan(0); // they were asked again, and not yet answered
  for (const route of held) await route.continue();
  await page.unroute('**/kpi-data?*');
});
