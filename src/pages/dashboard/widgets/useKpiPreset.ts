// The signed-in user's KPI preset of the map dashboard (model kpi_preset, kept on the server per
// user): read once, then each change shown at once and saved — the first change creates it.
import { useCreate, useList, useUpdate } from '@refinedev/core';
import { useState } from 'react';
import type { KpiPreset } from '../../../schemas/kpiPreset.ts';
import type { PresetItem } from './presetItems.ts';

const MODULE = 'factory-dashboard';

export interface KpiPresetState {
  /** The preset's items; undefined while the user has none (every listed KPI shows). */
  items: PresetItem[] | undefined;
  loading: boolean;
  saving: boolean;
  save(items: PresetItem[]): void;
}

export function useKpiPreset(): KpiPresetState {
  const presetCall = useList<KpiPreset & { id: number }>({
    resource: 'kpi_preset',
    filters: [{ field: 'module', operator: 'eq', value: MODULE }],
    pagination: { mode: 'off' },
  });
  const stored = presetCall.result.data?.find((preset) => preset.module === MODULE);
  const [changed, setChanged] = useState<PresetItem[]>();
  const { mutate: create, mutation: creating } = useCreate();
  const { mutate: update, mutation: updating } = useUpdate();
  const save = (items: PresetItem[]) => {
    setChanged(items);
    const values = { items };
    if (stored) update({ resource: 'kpi_preset', id: stored.id, values, successNotification: false });
    else create({ resource: 'kpi_preset', values: { module: MODULE, ...values }, successNotification: false });
  };
  return {
    items: changed ?? (stored?.items as PresetItem[] | undefined),
    loading: presetCall.query.isLoading,
    saving: creating.isPending || updating.isPending,
    save,
  };
}
