// One KPI widget of the dashboard: its chart on the KPI's data, narrowed to the selected entity,
// polled at the KPI's refresh interval while the widget is in view; its controls (move, width,
// remove) change the user's preset.
import { ArrowLeftOutlined, ArrowRightOutlined, CloseOutlined } from '@ant-design/icons';
import { Button, Card, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { KpiChart } from '../../../components/charts/KpiChart.tsx';
import { useElementWidth } from '../../../components/charts/useElementWidth.ts';
import { kpiWidthPercent } from '../../../components/charts/kpiWidth.ts';
import { useInView } from '../../../components/charts/useInView.ts';
import { useKpiData } from '../../../components/charts/useKpiData.ts';
import { useSeriesEntityNames } from '../../../components/charts/useSeriesEntityNames.ts';
import { pickLocalized, type LocalizedValue } from '../../../shared/i18n/pickLocalized.ts';
import type { Kpi } from '../../../schemas/kpi.ts';
import { WIDGET_WIDTHS } from './presetItems.ts';

export interface KpiWidgetProps {
  kpi: Kpi & { id: number };
  width: number;
  /** The selected entity the chart narrows to, if any. */
  entityId?: number;
  first: boolean;
  last: boolean;
  onMove(step: number): void;
  onResize(width: number): void;
  onRemove(): void;
}

export function KpiWidget({ kpi, width, entityId, first, last, onMove, onResize, onRemove }: KpiWidgetProps) {
  const { t, i18n } = useTranslation();
  const [ref, pixels, measured] = useElementWidth();
  const visible = useInView(ref);
  const name = pickLocalized(kpi.name as LocalizedValue, i18n.language) || `#${kpi.id}`;
  const { data, loading, error } = useKpiData({
    id: kpi.id,
    definition: kpi.definition,
    entityIds: entityId === undefined ? undefined : [entityId],
    maxPoints: pixels,
    refreshSeconds: kpi.definition.refresh_interval ?? 0,
    enabled: measured,
    visible,
  });
  const entityNames = useSeriesEntityNames(data);
  return (
    <div ref={ref} className="kpi-widget" style={{ width: `${kpiWidthPercent(width)}%` }} data-testid="kpi-widget" data-kpi-id={kpi.id}>
      <Card
        size="small"
        title={name}
        extra={(
          <Space size={4}>
            <Button size="small" type="text" icon={<ArrowLeftOutlined />} disabled={first} onClick={() => onMove(-1)} aria-label={t('dashboard.widgets.moveEarlier', { name })} />
            <Button size="small" type="text" icon={<ArrowRightOutlined />} disabled={last} onClick={() => onMove(1)} aria-label={t('dashboard.widgets.moveLater', { name })} />
            <Select size="small" value={width} onChange={onResize} aria-label={t('dashboard.widgets.width', { name })} popupMatchSelectWidth={false}
              options={WIDGET_WIDTHS.map((columns) => ({ value: columns, label: t('dashboard.widgets.columns', { count: columns }) }))} />
            <Button size="small" type="text" icon={<CloseOutlined />} onClick={onRemove} aria-label={t('dashboard.widgets.remove', { name })} data-testid="kpi-widget-remove" />
          </Space>
        )}
      >
        <KpiChart kpi={kpi} data={data} loading={loading} error={error} entityNames={entityNames} />
      </Card>
    </div>
  );
}
