// One KPI's chart: its definition and data made into a picture (SPEC §3, §5), nothing else — the
// caller fetches (useKpiData) and sets the width (kpiWidthPercent). No data: 'No KPI data found';
// an error: its text inline. KpiPlot draws the plot as SVG. A chart of something other than a
// KPI's answer (a lighting profile's day) may name its time zone, fix its value axis and mark
// instants.
import { Alert, Empty, Spin } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAttributeName } from '../../i18n/attributeNames.ts';
import { pickLocalized, type LocalizedValue } from '../../shared/i18n/pickLocalized.ts';
import type { KpiDataAnswer } from '../../schemas/kpiDataQuery.ts';
import { colourLegend } from './chartColours.ts';
import { useDrawTurn } from './drawTurns.ts';
import { plotConfigOf } from './chartConfig.ts';
import { chartModel, DEFAULT_CHART_HEIGHT } from './chartModel.ts';
import { isEmptyAnswer } from './chartSeries.ts';
import { ColourLegend } from './ColourLegend.tsx';
import { KpiDataTable } from './KpiDataTable.tsx';
import { KpiPlot } from './KpiPlot.tsx';
import { PlotErrorBoundary } from './PlotErrorBoundary.tsx';
import type { ChartMarker, KpiDefinition, KpiQueryItem } from './kpiTypes.ts';

export interface KpiChartProps {
  kpi: { name?: unknown; query: KpiQueryItem[]; definition: KpiDefinition };
  data: KpiDataAnswer | undefined;
  loading?: boolean;
  error?: string;
  /** Names of the entities of per-entity series, by id. */
  entityNames?: Record<number, string>;
  /** The zone times are shown in, instead of the KPI's. */
  timeZone?: string;
  /** A fixed range of the value axis. */
  valueDomain?: readonly [number, number];
  /** Instants marked on a time-scale chart, each with its label. */
  markers?: readonly ChartMarker[];
  /** Called once the chart shows its data, or its empty or error state (a print view waits for it). */
  onDrawn?: () => void;
}

export function KpiChart({ kpi, data, loading, error, entityNames, timeZone, valueDomain, markers, onDrawn }: KpiChartProps) {
  const { t, i18n } = useTranslation();
  const { definition } = kpi;
  const type = definition.chart ?? 'line';
  const [drawn, setDrawn] = useState(false);
  const element = useRef<HTMLDivElement>(null);
  const comparedSuffix = t('charts.compared');
  const attributeName = useAttributeName();
  const model = useMemo(
    () => chartModel(definition, data, { language: i18n.language, entityNames, comparedSuffix, attributeName, timeZone, valueDomain, markers }, kpi.query),
    [definition, data, i18n.language, entityNames, comparedSuffix, attributeName, kpi.query, timeZone, valueDomain, markers],
  );
  const plot = useMemo(() => plotConfigOf(type, model), [type, model]);
  const legend = useMemo(
    () => (definition.legend === false ? [] : colourLegend(definition, t('charts.outOfBounds'))),
    [definition, t],
  );
  const name = pickLocalized(kpi.name as LocalizedValue, i18n.language);
  // the colour legend sits inside the image: its words join the summary
  const summary = [t('charts.summary', { name, type: t(`enumValues.chart.${type}`) }), ...legend.map((entry) => entry.label)].join('; ');
  const height = definition.height ?? DEFAULT_CHART_HEIGHT;

  const waiting = !error && loading && !data;
  const empty = !error && !waiting && isEmptyAnswer(data);
  const seriesCount = error || waiting || empty ? 0 : plot?.seriesCount ?? model.series.length;
  const statesDrawn = !!error || empty;
  // a plot waits for its turn (drawTurns.ts); the states and the data table draw at once
  const [mayPlot, turnDone] = useDrawTurn(element, !error && !waiting && !empty && !!plot);
  const markDrawn = useCallback(() => {
    setDrawn(true);
    turnDone();
  }, [turnDone]);
  const shown = drawn || statesDrawn;
  useEffect(() => { if (shown) onDrawn?.(); }, [shown, onDrawn]);

  let body;
  if (error) body = <Alert type="error" showIcon message={error} data-testid="kpi-chart-error" />;
  else if (waiting) body = <Spin style={{ display: 'block', padding: 24 }} />;
  else if (empty) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('charts.noData')} />;
  else if (!plot) body = <KpiDataTable model={model} onDrawn={markDrawn} />;
  else if (!mayPlot) body = <div style={{ height }}><Spin style={{ display: 'block', padding: 24 }} /></div>;
  else {
    body = (
      <PlotErrorBoundary fallback={<Alert type="error" showIcon message={t('errors.generic')} data-testid="kpi-chart-error" />}>
        <KpiPlot config={plot} height={height} onDrawn={markDrawn} />
      </PlotErrorBoundary>
    );
  }

  // a figure named by its summary: a table in it is read as a table, a plot's picture is hidden
  // and its legend's items are buttons (an image's content would be hidden with them)
  return (
    <div
      ref={element}
      data-testid="kpi-chart"
      data-chart-type={type}
      data-series-count={seriesCount}
      data-plot={seriesCount && plot ? plot.plot : undefined}
      data-value-axes={seriesCount && plot ? plot.valueAxes : undefined}
      data-drawn={shown ? 'true' : 'false'}
      role="figure"
      aria-label={summary}
      aria-busy={waiting || undefined}
    >
      {body}
      {!error && !empty && !waiting && <ColourLegend entries={legend} />}
    </div>
  );
}
