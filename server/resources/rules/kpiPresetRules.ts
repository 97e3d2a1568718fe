// KPI preset rules: a KPI stands once in a preset (JSON Schema's uniqueItems compares whole items,
// so the same KPI at two widths would pass it), and a user keeps one preset per dashboard — a
// second one is the client's conflict, answered as such (bindings.ts), never a 500.
import { ApiError, badRequest } from '../../errors.ts';
import type { ModelRules } from './types.ts';

export const kpiPresetTaken = () =>
  new ApiError(409, 'KPI_PRESET_EXISTS', 'You already keep a KPI preset for this dashboard. Change that one instead.', 'module');

export const kpiPresetRules: ModelRules = {
  async beforeWrite(_context, record) {
    const seen = new Set<number>();
    for (const [index, item] of ((record.items ?? []) as { kpi_id: number }[]).entries()) {
      const field = `items.${index}.kpi_id`;
      if (seen.has(item.kpi_id)) throw badRequest('KPI_PRESET_DUPLICATE', `${field}: the KPI ${item.kpi_id} is already in the preset`, field);
      seen.add(item.kpi_id);
    }
  },
};
