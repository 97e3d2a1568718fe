// KpiChart as a reader meets it in jsdom: the data table, a plot's shapes and its tooltip, the
// empty and error states, and the attributes tests and screen readers rely on.
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { KpiChart } from '../../../src/components/charts/KpiChart.tsx';
import type { KpiDefinition } from '../../../src/components/charts/kpiTypes.ts';
import { answer, series } from '../../support/kpiAnswers.ts';

const query = [{ key: 'power', aggregation: 'avg' as const }];
const payload = '<img src=x onerror=alert(1)>';
const mapping: KpiDefinition['colour_mapping'] = [
  { from: 0, to: 10, color: '#00aa00', property: 'power', measure: 'W', label: payload },
  { from: 10, to: 100, color: '#cc0000', property: 'power', measure: 'W', label: 'High' },
];

beforeAll(async () => {
  await setUpI18n('facility').changeLanguage('en');
});
afterEach(cleanup);

const root = () => screen.getByTestId('kpi-chart');

describe('KpiChart', () => {
  it('draws a data table: a real table of every point, coloured by the mapping, paged by page_size', () => {
    const values = Array.from({ length: 12 }, (_, index) => index * 5);
    render(<KpiChart
      kpi={{ name: { en: 'Lamp power', sk: 'Príkon' }, query, definition: { chart: 'data-table', page_size: 5, decimals: 0, colour_mapping: mapping, out_of_bounds_color: '#999999' } }}
      data={answer(series(values, { entity_id: 3 }))}
      entityNames={{ 3: payload }}
    />);
    expect(root().getAttribute('data-chart-type')).toBe('data-table');
    expect(root().getAttribute('data-series-count')).toBe('1');
    expect(root().getAttribute('data-drawn')).toBe('true');
    expect(root().getAttribute('aria-label')).toContain('Lamp power: Data table chart');
    const table = within(root()).getByRole('table');
    const headers = within(table).getAllByRole('columnheader').map((cell) => cell.textContent);
    expect(headers).toEqual(['Time', 'Series', 'Entity', 'Value']);
    const bodyRows = within(table).getAllByRole('row').slice(1);
    expect(bodyRows).toHaveLength(5);
    expect(within(bodyRows[0]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['3/28/26, 11:00 AM', 'Power', payload, '55']);
    const values0 = within(table).getAllByTestId('kpi-table-value');
    expect(values0[0].style.color).toBe('rgb(204, 0, 0)');
    // the entity name and the legend's label are text, not markup
    expect(root().querySelector('img')).toBeNull();
    expect(within(screen.getByTestId('kpi-colour-legend')).getByText(`${payload} (0 – 10 W)`)).toBeTruthy();
  });

  it('says "No KPI data found" for an answer without points', () => {
    render(<KpiChart kpi={{ query, definition: { chart: 'line' } }} data={answer(series([]))} />);
    expect(screen.getByText('No KPI data found')).toBeTruthy();
    expect(root().getAttribute('data-series-count')).toBe('0');
    expect(root().getAttribute('data-drawn')).toBe('true');
  });

  it('shows the error text inline instead of the chart', () => {
    render(<KpiChart kpi={{ query, definition: { chart: 'bar' } }} data={answer(series([1]))} error="Bad kpi_data" />);
    expect(within(screen.getByTestId('kpi-chart-error')).getByText('Bad kpi_data')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('is busy while the first answer loads, and a figure with a summary once a plot has data', async () => {
    const { rerender } = render(<KpiChart kpi={{ name: 'Power', query, definition: { chart: 'gauge', max: 100 } }} data={undefined} loading />);
    expect(root().getAttribute('aria-busy')).toBe('true');
    expect(root().getAttribute('data-drawn')).toBe('false');
    rerender(<KpiChart kpi={{ name: 'Power', query, definition: { chart: 'gauge', max: 100 } }} data={answer(series([4]), { ...series([5]), compare: true })} />);
    expect(root().getAttribute('role')).toBe('figure');
    expect(root().getAttribute('data-plot')).toBe('gauge');
    expect(root().getAttribute('aria-label')).toBe('Power: Gauge chart');
    expect(root().getAttribute('data-series-count')).toBe('1');
  });

  it('draws a plot as shapes once its turn comes, and a tooltip of the bucket under the pointer', async () => {
    render(<KpiChart kpi={{ name: 'Power', query, definition: { chart: 'bar', decimals: 0 } }} data={answer(series([10, 20, 30]), { ...series([5, 6, 7]), compare: true })} />);
    await waitFor(() => expect(root().getAttribute('data-drawn')).toBe('true'));
    const svg = root().querySelector('svg')!;
    expect(svg.getAttribute('aria-hidden')).toBe('true');
    // three buckets of two columns, and the legend's two swatches
    expect(svg.querySelectorAll('rect')).toHaveLength(8);
    expect([...svg.querySelectorAll('text[data-role=legend]')].map((text) => text.textContent)).toEqual(['Power', 'Power (compared)']);
    expect(screen.queryByTestId('kpi-tooltip')).toBeNull();
    // jsdom lays nothing out: the plot is drawn 600 px wide from the element's left edge at 0
    fireEvent.pointerMove(svg, { clientX: 560, clientY: 100 });
    const tooltip = await screen.findByTestId('kpi-tooltip');
    expect(within(tooltip).getByText('3/28/26, 2:00 AM')).toBeTruthy();
    expect([...tooltip.querySelectorAll('.kpi-tooltip-value')].map((value) => value.textContent)).toEqual(['30', '7']);
    fireEvent.pointerLeave(svg);
    expect(screen.queryByTestId('kpi-tooltip')).toBeNull();
  });

  it('hides a series when its legend item is pressed and shows it again, through a new answer; the value axis follows what is shown', async () => {
    const kpi = { name: 'Power', query, definition: { chart: 'line' as const, decimals: 0 } };
    const { rerender } = render(<KpiChart kpi={kpi} data={answer(series([10, 20, 30]), { ...series([500, 600, 700]), compare: true })} />);
    await waitFor(() => expect(root().getAttribute('data-drawn')).toBe('true'));
    const lines = () => [...root().querySelectorAll('path[data-role=series]')].length;
    const ticks = () => [...root().querySelectorAll('text[data-role=tick]')].map((text) => text.textContent);
    expect(lines()).toBe(2);
    expect(ticks()).toContain('600');
    const legend = within(screen.getByRole('group', { name: 'Series: press one to hide or show it' }));
    const compared = legend.getByRole('button', { name: 'Power (compared)' });
    expect(compared.getAttribute('aria-pressed')).toBe('true');
    expect(compared.getAttribute('title')).toBe('Hide Power (compared)');

    fireEvent.click(compared);
    expect(lines()).toBe(1);
    expect(compared.getAttribute('aria-pressed')).toBe('false');
    expect(compared.getAttribute('title')).toBe('Show Power (compared)');
    // the axis is the shown series' alone; the legend still names both
    expect(ticks()).not.toContain('600');
    expect([...root().querySelectorAll('text[data-role=legend]')].map((text) => text.textContent)).toEqual(['Power', 'Power (compared)']);

    // the next poll's answer keeps it hidden
    rerender(<KpiChart kpi={kpi} data={answer(series([11, 21, 31]), { ...series([501, 601, 701]), compare: true })} />);
    expect(lines()).toBe(1);
    fireEvent.click(legend.getByRole('button', { name: 'Power (compared)' }));
    expect(lines()).toBe(2);
    expect(legend.getByRole('button', { name: 'Power (compared)' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('has no legend buttons when the KPI turns its legend off', async () => {
    render(<KpiChart kpi={{ name: 'Power', query, definition: { chart: 'bar', legend: false } }} data={answer(series([10, 20, 30]))} />);
    await waitFor(() => expect(root().getAttribute('data-drawn')).toBe('true'));
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });
});
