// Draws a plot config as SVG: its layout (cartesianLayout, roundLayout) made at the element's own
// width, redrawn when that changes, and a tooltip that follows the pointer. A few hundred shapes
// per chart, so ten charts draw in tens of milliseconds on the CPU (bench/charts.ts, case (c)).
import { memo, useCallback, useEffect, useMemo, useState, type PointerEvent } from 'react';
import { cartesianLayout } from './cartesianLayout.ts';
import type { PlotConfig } from './chartConfig.ts';
import { ChartTooltip, type TooltipAt } from './ChartTooltip.tsx';
import { LegendButtons } from './LegendButtons.tsx';
import type { Mark, PlotLayout } from './plotLayout.ts';
import { gaugeLayout, pieLayout } from './roundLayout.ts';
import { CHART_FONT_SIZE } from './textWidth.ts';
import { useElementWidth } from './useElementWidth.ts';

/** The width drawn at before the element has one (hidden, or no layout engine). */
const UNMEASURED_WIDTH = 600;

export function plotLayout(config: PlotConfig, width: number, height: number): PlotLayout {
  if (config.plot === 'pie') return pieLayout(config, width, height);
  if (config.plot === 'gauge') return gaugeLayout(config, width, height);
  return cartesianLayout(config, width, height);
}

const MarkShape = ({ mark }: { mark: Mark }) => {
  switch (mark.kind) {
    case 'rect':
      return <rect x={mark.x} y={mark.y} width={mark.width} height={mark.height} fill={mark.fill} fillOpacity={mark.opacity} stroke={mark.stroke} strokeDasharray={mark.dash} />;
    case 'circle':
      return <circle cx={mark.x} cy={mark.y} r={mark.r} fill={mark.fill} />;
    case 'path':
      return (
        <path
          d={mark.d} fill={mark.fill ?? 'none'} fillOpacity={mark.opacity} fillRule="evenodd" stroke={mark.stroke} strokeWidth={mark.width} strokeDasharray={mark.dash}
          data-role={mark.role} data-target={mark.target}
        />
      );
    default:
      return (
        <text
          x={mark.x} y={mark.y} textAnchor={mark.anchor} dominantBaseline={mark.baseline} fill={mark.fill} fontSize={mark.size ?? CHART_FONT_SIZE} fontWeight={mark.weight}
          data-role={mark.role}
        >
          {mark.text}
        </text>
      );
  }
};

/** The shapes: drawn again only when the layout changes, not when the pointer moves. */
const Shapes = memo(function Shapes({ layout }: { layout: PlotLayout }) {
  return layout.marks.map((mark, index) => <MarkShape key={index} mark={mark} />);
});

/** The hover target nearest `at` among targets sorted by position. */
function nearest(targets: NonNullable<PlotLayout['hover']>['targets'], at: number) {
  let low = 0;
  let high = targets.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (targets[middle].at < at) low = middle + 1;
    else high = middle;
  }
  return low > 0 && at - targets[low - 1].at < targets[low].at - at ? targets[low - 1] : targets[low];
}

/** The series hidden by their legend items, kept by name through new answers. */
function useHiddenSeries() {
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const toggle = useCallback((series: string) => setHidden((before) => {
    const after = new Set(before);
    if (!after.delete(series)) after.add(series);
    return after;
  }), []);
  return [hidden, toggle] as const;
}

/** `onDrawn` is called once the shapes of each layout are in the page. */
export function KpiPlot({ config, height, onDrawn }: { config: PlotConfig; height: number; onDrawn: () => void }) {
  const [ref, width] = useElementWidth(UNMEASURED_WIDTH, 1);
  const [hidden, toggleSeries] = useHiddenSeries();
  const layout = useMemo(() => plotLayout({ ...config, hidden }, width, height), [config, hidden, width, height]);
  useEffect(onDrawn, [layout, onDrawn]);
  const [tooltip, setTooltip] = useState<TooltipAt & { line?: number }>();
  const { hover } = layout;

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    if (!hover?.targets.length) return;
    const box = event.currentTarget.getBoundingClientRect();
    const x = event.clientX - box.left;
    const y = event.clientY - box.top;
    const { area } = hover;
    if (hover.axis === 'slice') {
      const index = (event.target as Element).getAttribute('data-target');
      const target = index === null ? undefined : hover.targets[Number(index)];
      setTooltip(target ? { rows: target.rows, x, y } : undefined);
      return;
    }
    if (x < area.left || x > area.right || y < area.top || y > area.bottom) {
      setTooltip(undefined);
      return;
    }
    const target = nearest(hover.targets, hover.axis === 'x' ? x : y);
    setTooltip({ rows: target.rows, x, y, line: target.at });
  };

  const line = tooltip?.line;
  return (
    <div ref={ref} style={{ position: 'relative', height }}>
      <svg width={width} height={height} aria-hidden focusable="false" style={{ display: 'block', overflow: 'visible', fontFamily: 'inherit' }} onPointerMove={onPointerMove} onPointerLeave={() => setTooltip(undefined)}>
        <Shapes layout={layout} />
        {line !== undefined && hover && hover.axis !== 'slice' && (
          <path
            d={hover.axis === 'x' ? `M${line} ${hover.area.top}V${hover.area.bottom}` : `M${hover.area.left} ${line}H${hover.area.right}`}
            stroke="#8c8c8c" strokeWidth={1} pointerEvents="none"
          />
        )}
      </svg>
      {layout.legend && <LegendButtons items={layout.legend} onToggle={toggleSeries} />}
      {tooltip && <ChartTooltip model={config.model} at={tooltip} width={width} />}
    </div>
  );
}
