// The dashboard's KPI widgets (SPEC §1, §3 "KPI list and presets", §4): the KPI list of the
// selected groups (changing groups reloads it), shown in the order and widths of the user's
// preset; KPIs are added, moved, resized and removed here, and every change is kept on the server.
import { PlusOutlined } from '@ant-design/icons';
import { useList } from '@refinedev/core';
import { Alert, Button, Empty, Select, Space, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pickLocalized, type LocalizedValue } from '../../../shared/i18n/pickLocalized.ts';
import type { Kpi } from '../../../schemas/kpi.ts';
import { KpiWidget } from './KpiWidget.tsx';
import { addItem, moveItem, removeItem, resizeItem, shownItems, type PresetItem } from './presetItems.ts';
import { useKpiPreset } from './useKpiPreset.ts';
import './widgets.css';

type ListedKpi = Kpi & { id: number };

export function DashboardWidgets({ groupIds, entityId }: { groupIds: readonly number[]; entityId?: number }) {
  const { t, i18n } = useTranslation();
  const kpiCall = useList<ListedKpi>({
    resource: 'kpi',
    filters: groupIds.length ? [{ field: 'group_ids', operator: 'eq', value: groupIds }] : [],
    pagination: { mode: 'off' },
  });
  const kpis = useMemo(() => kpiCall.result.data ?? [], [kpiCall.result.data]);
  const preset = useKpiPreset();
  const items = useMemo(() => shownItems(kpis, preset.items), [kpis, preset.items]);
  const [adding, setAdding] = useState<number>();
  const byId = new Map(kpis.map((kpi) => [kpi.id, kpi]));
  const nameOf = (kpi: ListedKpi) => pickLocalized(kpi.name as LocalizedValue, i18n.language) || `#${kpi.id}`;
  const addable = kpis.filter((kpi) => !items.some((item) => item.kpi_id === kpi.id));
  const save = (next: PresetItem[]) => preset.save(next);

  if (kpiCall.query.isLoading || preset.loading) return <Spin tip={t('common.loading')}><div className="kpi-widgets-loading" /></Spin>;
  if (kpiCall.query.isError) return <Alert type="error" showIcon message={kpiCall.query.error?.message ?? t('errors.generic')} />;

  return (
    <section className="kpi-widgets" aria-label={t('dashboard.widgets.title')} data-testid="kpi-widgets">
      {addable.length > 0 && (
        <Space className="kpi-widgets-toolbar" wrap>
          <Select
            style={{ minWidth: 220 }}
            value={adding}
            onChange={setAdding}
            placeholder={t('dashboard.widgets.choose')}
            aria-label={t('dashboard.widgets.choose')}
            options={addable.map((kpi) => ({ value: kpi.id, label: nameOf(kpi) }))}
            data-testid="kpi-widget-choose"
          />
          <Button icon={<PlusOutlined />} disabled={adding === undefined || !byId.has(adding)} loading={preset.saving} data-testid="kpi-widget-add"
            onClick={() => {
              save(addItem(items, byId.get(adding!)!));
              setAdding(undefined);
            }}>
            {t('dashboard.widgets.add')}
          </Button>
        </Space>
      )}
      {items.length === 0 ? (
        <Empty description={kpis.length ? t('dashboard.widgets.noneChosen') : t('dashboard.widgets.noKpis')} />
      ) : (
        <div className="kpi-widget-grid">
          {items.map((item, index) => (
            <KpiWidget
              key={item.kpi_id}
              kpi={byId.get(item.kpi_id)!}
              width={item.width}
              entityId={entityId}
              first={index === 0}
              last={index === items.length - 1}
              onMove={(step) => save(moveItem(items, item.kpi_id, step))}
              onResize={(width) => save(resizeItem(items, item.kpi_id, width))}
              onRemove={() => save(removeItem(items, item.kpi_id))}
            />
          ))}
        </div>
      )}
    </section>
  );
}
