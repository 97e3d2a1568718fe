// The statement behind "removing a KPI drops it from presets" (SPEC §4): every preset of the
// tenant that lists the KPI keeps its other items, in their order.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from './database.ts';
import type { RecordTable } from './resourceQueries.ts';
import { kpiPresets } from './schema.ts';

/** Takes the KPI out of the tenant's presets; answers the presets it changed, as `returning` selects them. */
export async function dropKpiFromPresets(tx: Tx, tenantId: string, kpiId: number, returning: RecordTable['selection']): Promise<Record<string, unknown>[]> {
  const listed = sql`jsonb_build_array(jsonb_build_object('kpi_id', ${kpiId}::integer))`;
  return tx.update(kpiPresets).set({
    items: sql`(SELECT coalesce(jsonb_agg(e.item ORDER BY e.position), '[]'::jsonb)
      FROM jsonb_array_elements(${kpiPresets.items}) WITH ORDINALITY AS e(item, position)
      WHERE e.item -> 'kpi_id' <> to_jsonb(${kpiId}::integer))`,
    updatedAt: sql`now()`,
  }).where(and(eq(kpiPresets.tenantId, tenantId), sql`${kpiPresets.items} @> ${listed}`)).returning(returning as never);
}
