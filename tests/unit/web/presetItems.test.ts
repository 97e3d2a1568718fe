// The dashboard's KPI widgets: the preset over the KPI list, and the preset's changes.
import { describe, expect, it } from 'vitest';
import { addItem, moveItem, removeItem, resizeItem, shownItems } from '../../../src/pages/dashboard/widgets/presetItems.ts';

const kpis = [{ id: 1, definition: { width: 12 } }, { id: 2, definition: {} }, { id: 3, definition: { width: 8 } }];

describe('KPI widget presets', () => {
  it('shows every listed KPI at its own width without a preset', () => {
    expect(shownItems(kpis, undefined)).toEqual([{ kpi_id: 1, width: 12 }, { kpi_id: 2, width: 24 }, { kpi_id: 3, width: 8 }]);
  });

  it('shows the preset\'s order and widths, without KPIs that left the list', () => {
    const preset = [{ kpi_id: 3, width: 24 }, { kpi_id: 9, width: 12 }, { kpi_id: 1, width: 6 }];
    expect(shownItems(kpis, preset)).toEqual([{ kpi_id: 3, width: 24 }, { kpi_id: 1, width: 6 }]);
    expect(shownItems(kpis, [])).toEqual([]);
  });

  it('adds once, removes, moves within bounds and resizes', () => {
    let items = addItem([], kpis[0]);
    items = addItem(items, kpis[1]);
    expect(addItem(items, kpis[0])).toEqual(items);
    expect(items).toEqual([{ kpi_id: 1, width: 12 }, { kpi_id: 2, width: 24 }]);
    expect(moveItem(items, 2, -1).map((item) => item.kpi_id)).toEqual([2, 1]);
    expect(moveItem(items, 2, 1).map((item) => item.kpi_id)).toEqual([1, 2]);
    expect(moveItem(items, 7, 1)).toEqual(items);
    expect(resizeItem(items, 1, 24)[0]).toEqual({ kpi_id: 1, width: 24 });
    expect(removeItem(items, 1)).toEqual([{ kpi_id: 2, width: 24 }]);
  });
});
