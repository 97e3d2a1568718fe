// The KPI builder (SPEC §2 "KPI editor"): the KPI's generated schema form beside a live preview of
// its chart on real data. The preview follows the form within half a second of a change (a short
// pause after typing), through POST /kpi-preview, so nothing has to be saved to see it.
import { Card, Empty, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { KpiChart } from '../../components/charts/KpiChart.tsx';
import { useElementWidth } from '../../components/charts/useElementWidth.ts';
import { useKpiData } from '../../components/charts/useKpiData.ts';
import { useSeriesEntityNames } from '../../components/charts/useSeriesEntityNames.ts';
import { cleanValues } from '../../components/schema/formValues.ts';
import { PREVIEW_PAUSE_MS, usePaused } from '../../components/usePaused.ts';
import { pickLocalized, type LocalizedValue } from '../../shared/i18n/pickLocalized.ts';
import type { ModelResource } from '../../resources/defineResource.ts';
import type { Kpi } from '../../schemas/kpi.ts';
import { kpiSchema } from '../../schemas/kpi.ts';
import type { FieldSchema } from '../../schemas/model.ts';
import { RECORD_RULES } from '../../schemas/recordRules.ts';
import ResourceFormPage, { type FormAsideProps } from '../resources/ResourceFormPage.tsx';

function KpiPreview({ values }: FormAsideProps) {
  const { t, i18n } = useTranslation();
  const draft = usePaused(JSON.stringify(cleanValues(kpiSchema as unknown as FieldSchema, values)), PREVIEW_PAUSE_MS);
  // one object per draft: the chart and its query stay the same while the draft does
  const kpi = useMemo(() => JSON.parse(draft) as Partial<Kpi>, [draft]);
  const [ref, width, measured] = useElementWidth();
  const query = useMemo(() => (kpi.query ?? []).filter((item) => item?.key), [kpi]);
  const problem = RECORD_RULES.kpi(kpi as Record<string, unknown>);
  const ready = query.length > 0 && kpi.definition !== undefined && !problem;
  const { data, loading, error } = useKpiData({
    draft: ready ? { query, definition: kpi.definition! } : undefined,
    maxPoints: width,
    refreshSeconds: 0,
    enabled: ready && measured,
  });
  const entityNames = useSeriesEntityNames(data);
  const chartKpi = useMemo(() => (kpi.definition ? { name: kpi.name, query, definition: kpi.definition } : undefined), [kpi, query]);
  const name = pickLocalized(kpi.name as LocalizedValue, i18n.language);
  return (
    <Card title={t('kpiBuilder.preview')} data-testid="kpi-preview">
      <div ref={ref}>
        {ready ? (
          <>
            {name && <Typography.Text strong>{name}</Typography.Text>}
            <KpiChart kpi={chartKpi!} data={data} loading={loading} error={error} entityNames={entityNames} />
          </>
        ) : (
          <Empty description={problem ? t(`apiErrors.${problem.code}`) : t('kpiBuilder.previewHint')} />
        )}
      </div>
    </Card>
  );
}

export default function KpiBuilderPage({ resource, action }: { resource: ModelResource; action: 'create' | 'edit' }) {
  return <ResourceFormPage resource={resource} action={action} aside={KpiPreview} />;
}
