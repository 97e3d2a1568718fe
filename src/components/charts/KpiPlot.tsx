// Draws one plot config with @ant-design/plots. Loaded lazily by KpiChart, so the plots library
// stays out of the first bundle. The plot element is memoised on its config: the library updates
// its chart on every render it gets (its props always hold a fresh callback), so a parent that
// re-renders without new data must not reach it. The library destroys its chart on unmount.
import { Bar, Column, Gauge, Line, Pie } from '@ant-design/plots';
import { useCallback, useMemo, useRef, type ComponentType } from 'react';
import type { PlotConfig, PlotKind } from './chartConfig.ts';

const PLOTS: Record<PlotKind, ComponentType<Record<string, unknown>>> = {
  Column: Column as never, Bar: Bar as never, Line: Line as never, Pie: Pie as never, Gauge: Gauge as never,
};

/** G2's event after every drawing. */
const AFTER_RENDER = 'afterrender';

export default function KpiPlot({ config, onDrawn }: { config: PlotConfig; onDrawn: () => void }) {
  const drawnRef = useRef(onDrawn);
  drawnRef.current = onDrawn;
  const onEvent = useCallback((_chart: unknown, event: { type?: string }) => {
    if (event?.type === AFTER_RENDER) drawnRef.current();
  }, []);
  const Plot = PLOTS[config.plot];
  return useMemo(() => <Plot {...config.options} onEvent={onEvent} />, [Plot, config.options, onEvent]);
}
