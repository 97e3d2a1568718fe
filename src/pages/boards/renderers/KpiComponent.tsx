// A KPI component: the KpiChart of the KPI in definition.kpi_id, polled at the KPI's refresh
// interval while it is in view (as the dashboard's KPI widgets do).
import { useOne } from '@refinedev/core';
import { Alert, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { KpiChart } from '../../../components/charts/KpiChart.tsx';
import { useElementWidth } from '../../../components/charts/useElementWidth.ts';
import { useInView } from '../../../components/charts/useInView.ts';
import { useKpiData } from '../../../components/charts/useKpiData.ts';
import { useSeriesEntityNames } from '../../../components/charts/useSeriesEntityNames.ts';
import type { Kpi } from '../../../schemas/kpi.ts';
import { definitionOf, type RendererProps } from './rendererProps.ts';

export function KpiComponent({ component, onReady }: RendererProps) {
  const { t } = useTranslation();
  const kpiId = definitionOf(component).kpi_id;
  const { result: kpi, query } = useOne<Kpi & { id: number }>({ resource: 'kpi', id: kpiId, queryOptions: { enabled: kpiId !== undefined }, errorNotification: false });
  const [ref, pixels, measured] = useElementWidth();
  const visible = useInView(ref);
  const { data, loading, error } = useKpiData({
    id: kpiId,
    definition: kpi?.definition,
    maxPoints: pixels,
    refreshSeconds: kpi?.definition.refresh_interval ?? 0,
    enabled: measured && !!kpi,
    visible,
  });
  const entityNames = useSeriesEntityNames(data);
  const missing = kpiId === undefined || query.isError;
  useEffect(() => { if (missing) onReady(); }, [missing, onReady]);
  return (
    <div ref={ref} className="board-kpi">
      {missing ? <Alert type="warning" showIcon message={t('boards.kpiMissing')} />
        : !kpi ? <Spin style={{ display: 'block', padding: 24 }} />
          : <KpiChart kpi={kpi} data={data} loading={loading} error={error} entityNames={entityNames} onDrawn={onReady} />}
    </div>
  );
}
