// Labels, keys, entity names and the compared suffix are what users typed: every chart type holds
// them as text — in its SVG (axis, legend, labels) and its tooltip — and builds no markup from them.
import { cleanup, render } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { setUpI18n } from '../../../src/i18n/i18n.ts';
import { ChartTooltip } from '../../../src/components/charts/ChartTooltip.tsx';
import { chartModel } from '../../../src/components/charts/chartModel.ts';
import { DrawAllAtOnce } from '../../../src/components/charts/drawTurns.ts';
import { KpiChart } from '../../../src/components/charts/KpiChart.tsx';
import type { KpiDefinition } from '../../../src/components/charts/kpiTypes.ts';
import { answer, series } from '../../support/kpiAnswers.ts';
import { XSS_TEXT } from '../../support/xssPayloads.ts';

const PLOT_TYPES = ['bar', 'stacked-bar', 'horizontal-bar', 'line', 'pie', 'donut', 'time-scale'] as const;
const SVG_TAGS = new Set(['svg', 'path', 'rect', 'circle', 'text']);
const TOOLTIP_TAGS = new Set(['DIV', 'UL', 'LI', 'SPAN']);

beforeAll(async () => {
  await setUpI18n('facility').changeLanguage('en');
});
afterEach(cleanup);

const dataOf = (payload: string) => answer(
  series([1, 2], { label: payload, key: payload }),
  series([3, 4], { label: '', key: payload, entity_id: 9 }),
  { ...series([5, 6], { label: payload, key: payload, entity_id: 9 }), compare: true },
);

describe('KPI charts keep typed names as text', () => {
  it('has a corpus of at least 50 payloads', () => {
    expect(new Set(XSS_TEXT).size).toBeGreaterThanOrEqual(50);
  });

  for (const type of PLOT_TYPES) {
    it(`${type}: the plot shows every payload as text and builds no markup from it`, () => {
      for (const payload of XSS_TEXT) {
        // all at once: no turn to wait for
        const { container } = render(createElement(DrawAllAtOnce, null, createElement(KpiChart, {
          kpi: { name: payload, query: [{ key: 'power', aggregation: 'avg' }], definition: { chart: type } }, data: dataOf(payload), entityNames: { 9: payload },
        })));
        const svg = container.querySelector('svg')!;
        expect(svg, `${type} ${payload}`).toBeTruthy();
        for (const element of svg.querySelectorAll('*')) expect(SVG_TAGS.has(element.tagName), `${type}: <${element.tagName}> from ${payload}`).toBe(true);
        expect(container.querySelectorAll('script, img, iframe, a, foreignObject, [onerror], [onload]')).toHaveLength(0);
        const legend = [...svg.querySelectorAll('text[data-role=legend]')].map((node) => node.textContent);
        expect(legend.some((text) => text!.includes(payload)), `${type} ${payload}`).toBe(true);
        cleanup();
      }
    });
  }

  it('the tooltip holds every payload as text', () => {
    for (const payload of XSS_TEXT) {
      const definition: KpiDefinition = { chart: 'line' };
      const model = chartModel(definition, dataOf(payload), { language: 'en', comparedSuffix: payload, entityNames: { 9: payload } });
      const { container } = render(createElement(ChartTooltip, { model, at: { rows: model.rows.filter((row) => row.ts === model.rows[0].ts), x: 10, y: 10 }, width: 600 }));
      const tooltip = container.querySelector('.kpi-tooltip')!;
      for (const element of tooltip.querySelectorAll('*')) {
        expect(TOOLTIP_TAGS.has(element.tagName), `<${element.tagName}> from ${payload}`).toBe(true);
        expect(element.getAttributeNames().every((name) => name === 'class' || name === 'style'), payload).toBe(true);
      }
      const names = [...tooltip.querySelectorAll('.kpi-tooltip-name')].map((node) => node.textContent);
      expect(names).toHaveLength(3);
      expect(names.every((name) => name!.includes(payload)), payload).toBe(true);
      cleanup();
    }
  });

  it('never lets a colour become an attribute or a style other than a #rrggbb background', () => {
    const model = chartModel({ chart: 'line' }, answer(series([1]), series([2], { label: 'b' }), series([3], { label: 'c' })), { language: 'en', comparedSuffix: '' });
    const colours = ['red;background-image:url(javascript:alert(1))', '"><img src=x onerror=alert(1)>', '#12ab34'];
    const hostile = { ...model, pointColour: (row: (typeof model.rows)[number]) => colours[model.rows.indexOf(row)] };
    const { container } = render(createElement(ChartTooltip, { model: hostile, at: { rows: model.rows, x: 10, y: 10 }, width: 600 }));
    const markers = [...container.querySelectorAll<HTMLElement>('.kpi-tooltip-marker')].map((marker) => marker.style.background);
    expect(markers).toEqual(['', '', 'rgb(18, 171, 52)']);
    expect(container.querySelectorAll('img')).toHaveLength(0);
    expect(container.innerHTML).not.toContain('javascript');
  });
});
