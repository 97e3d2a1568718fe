// Entities under device maintenance on the map (src/maintenance/): a ring of their own colour,
// read from the windows in force (their `covered_entity_ids`).
import type { ExpressionSpecification } from 'maplibre-gl';
import { useMemo } from 'react';
import { useActiveMaintenance } from '../../../maintenance/useActiveMaintenance.ts';

export const MAINTENANCE_STATE = 'maintenance';
export const MAINTENANCE_COLOUR = '#722ed1';
export const UNDER_MAINTENANCE: ExpressionSpecification = ['boolean', ['feature-state', MAINTENANCE_STATE], false];

/** The entities the device-maintenance windows in force cover (id → true). */
export function useMaintenanceMarks(): ReadonlyMap<number, true> {
  const { active } = useActiveMaintenance();
  return useMemo(() => new Map(active.flatMap((window) => (window.covered_entity_ids ?? []).map((id): [number, true] => [id, true]))), [active]);
}
