// The statement behind "removing a KPI drops it from presets" (SPEC §4): every preset of the
// tenant that lists the KPI keeps its other items, in their order.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { kpiPresets } from './schema.ts';

export async function dropKpiFromPresets(tx: Tx, tenantId: string, kpiId: number): Promise<void> {
  const listed = sql`jsonb_build_array(jsonb_build_object('kpi_id', ${kpiId}::integer))`;
  await tx.update(kpiPresets).set({
    items: sql`(SELECT coalesce(jsonb_agg(e.item ORDER BY e.position), '[]'::jsonb)
      FROM jsonb_array_elements(${kpiPresets.items}) WITH ORDINALITY AS e(item, position)
      WHERE e.item -> 'kpi_id' <> to_jsonb(${kpiId}::integer))`,
    updatedAt: sql`now()`,
  }).where(and(eq(kpiPresets.tenantId, tenantId), sql`${kpiPresets.items} @> ${listed}`));
}
