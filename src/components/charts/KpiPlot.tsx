// Draws one plot config with @ant-design/plots. Loaded lazily by KpiChart, so the plots library
// stays out of the first bundle. The plot element is memoised on its config: the library updates
// its chart on every render it gets (its props always hold a fresh callback), so a parent that
// re-renders without new data must not reach it. The library destroys its chart on unmount.
import { Bar, Column, DualAxes, Gauge, Line, Pie } from '@ant-design/plots';
import { useCallback, useMemo, useRef, type ComponentType } from 'react';
import type { PlotConfig, PlotKind } from './chartConfig.ts';
import { drawOnDemand, type LoopingCanvas } from './drawOnDemand.ts';

const PLOTS: Record<PlotKind, ComponentType<Record<string, unknown>>> = {
  Column: Column as never, Bar: Bar as never, Line: Line as never, Pie: Pie as never, Gauge: Gauge as never, DualAxes: DualAxes as never,
};

/** G2's event after every drawing (the plot's own event relay drops it: it carries no event object). */
const AFTER_RENDER = 'afterrender';

interface PlotInstance {
  chart?: { on(event: string, listener: () => void): void; getContext(): { canvas?: LoopingCanvas } };
}

export default function KpiPlot({ config, onDrawn }: { config: PlotConfig; onDrawn: () => void }) {
  const drawnRef = useRef(onDrawn);
  drawnRef.current = onDrawn;
  // called once per chart, before its first drawing ends; the listener goes with the chart
  const onReady = useCallback((plot: PlotInstance) => {
    plot.chart?.on(AFTER_RENDER, () => drawnRef.current());
    const canvas = plot.chart?.getContext().canvas;
    if (canvas) drawOnDemand(canvas);
  }, []);
  const Plot = PLOTS[config.plot];
  return useMemo(() => <Plot {...config.options} onReady={onReady} />, [Plot, config.options, onReady]);
}
