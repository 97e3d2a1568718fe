// A plot that throws while drawing (a bug, an answer it cannot read) says so in its place instead
// of blanking the page around it.
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { answer, series } from '../../support/kpiAnswers.ts';

vi.mock('../../../src/components/charts/KpiPlot.tsx', () => ({
  KpiPlot: () => {
    throw new Error('The chart could not be drawn');
  },
}));
// the files of a worker share their modules: a copy of KpiChart of its own, importing the mock
vi.resetModules();
const { KpiChart } = await import('../../../src/components/charts/KpiChart.tsx');
const { setUpI18n } = await import('../../../src/i18n/i18n.ts');

beforeAll(async () => {
  await setUpI18n('facility').changeLanguage('en');
});
afterEach(cleanup);

it('says so in its place when the plot cannot be drawn, instead of blanking the page', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  render(<KpiChart kpi={{ query: [{ key: 'power', aggregation: 'avg' }], definition: { chart: 'line' } }} data={answer(series([1, 2]))} />);
  expect(await within(await screen.findByTestId('kpi-chart-error')).findByText('Something went wrong. Try again.')).toBeTruthy();
});
