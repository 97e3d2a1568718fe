// Labels, keys, entity names and colour-mapping labels are what users typed: whatever a chart
// config hands to HTML — G2 puts the tooltip into the page as HTML — must hold them as text.
// Canvas text (axis, legend, data labels) is drawn, never parsed.
import { describe, expect, it } from 'vitest';
import { isValidElement } from '@ant-design/plots/es/util/is-valid-element.js';
import { plotConfigOf, type PlotOptions } from '../../../src/components/charts/chartConfig.ts';
import { chartModel } from '../../../src/components/charts/chartModel.ts';
import { tooltipContent, type TooltipItem } from '../../../src/components/charts/chartTooltip.ts';
import type { ChartRow, KpiDefinition } from '../../../src/components/charts/kpiTypes.ts';
import { answer, series } from '../../support/kpiAnswers.ts';
import { XSS_TEXT } from '../../support/xssPayloads.ts';

const PLOT_TYPES = ['bar', 'stacked-bar', 'horizontal-bar', 'line', 'pie', 'donut', 'time-scale'] as const;
const TOOLTIP_TAGS = new Set(['DIV', 'UL', 'LI', 'SPAN']);

type TooltipSpec = { title: (row: ChartRow) => unknown; items: ((row: ChartRow) => TooltipItem)[] };

/** What G2 does with a tooltip: the title and items of the hovered rows, given to the render function. */
function tooltipOf(options: PlotOptions, hovered: ChartRow[]): HTMLElement {
  const spec = options.tooltip as TooltipSpec;
  const render = (options.interaction as { tooltip: { render: typeof tooltipContent } }).tooltip.render;
  return render(undefined, { title: spec.title(hovered[0]), items: hovered.flatMap((row) => spec.items.map((item) => item(row))) });
}

/** Every key path in the options whose value is a function: none may hand markup to the page but the tooltip's render. */
function functionPaths(value: unknown, path = ''): string[] {
  if (typeof value === 'function') return [path];
  if (!value || typeof value !== 'object' || value instanceof Date) return [];
  return Object.entries(value).flatMap(([key, child]) => functionPaths(child, path ? `${path}.${key}` : key));
}

describe('KPI chart configs keep typed names as text', () => {
  it('has a corpus of at least 50 payloads', () => {
    expect(new Set(XSS_TEXT).size).toBeGreaterThanOrEqual(50);
  });

  for (const type of PLOT_TYPES) {
    it(`${type}: the tooltip shows every payload as text and builds no markup from it`, () => {
      for (const payload of XSS_TEXT) {
        const data = answer(
          series([1, 2], { label: payload, key: payload }),
          series([3, 4], { label: '', key: payload, entity_id: 9 }),
          { ...series([5, 6], { label: payload, key: payload, entity_id: 9 }), compare: true },
        );
        const definition: KpiDefinition = { chart: type };
        const model = chartModel(definition, data, { language: 'en', comparedSuffix: payload, entityNames: { 9: payload } });
        const options = plotConfigOf(type, model)!.options;
        const rows = options.data as ChartRow[];
        const tooltip = tooltipOf(options, rows);

        for (const element of tooltip.querySelectorAll('*')) {
          expect(TOOLTIP_TAGS.has(element.tagName), `${type}: <${element.tagName}> from ${payload}`).toBe(true);
          expect(element.getAttributeNames().every((name) => name === 'class' || name === 'style'), payload).toBe(true);
        }
        expect(tooltip.querySelectorAll('script, img, svg, iframe, a, [onerror], [onload]')).toHaveLength(0);
        const names = [...tooltip.querySelectorAll('.kpi-tooltip-name')].map((node) => node.textContent);
        expect(names).toEqual(rows.map((row) => row.series));
        expect(names.every((name) => name!.includes(payload)), payload).toBe(true);

        // the only callbacks are value and colour functions and the tooltip's render, which the
        // plots library must not take for a React component (it would render it into a shared node)
        const paths = functionPaths(options);
        expect(paths.filter((path) => /render|html|content/i.test(path)), type).toEqual(['interaction.tooltip.render']);
        expect(isValidElement(String(tooltipContent))).toBe(false);
      }
    });
  }

  it('never lets a colour become an attribute or a style other than a #rrggbb background', () => {
    const tooltip = tooltipContent(undefined, { title: 't', items: [
      { name: 'a', value: 1, color: 'red;background-image:url(javascript:alert(1))' },
      { name: 'b', value: 2, color: '"><img src=x onerror=alert(1)>' },
      { name: 'c', value: 3, color: '#12ab34' },
    ] });
    const markers = [...tooltip.querySelectorAll<HTMLElement>('.kpi-tooltip-marker')].map((marker) => marker.style.background);
    expect(markers).toEqual(['', '', 'rgb(18, 171, 52)']);
    expect(tooltip.querySelectorAll('img')).toHaveLength(0);
    expect(tooltip.outerHTML).not.toContain('javascript');
  });
});
