// Test helper: entities made straight in the database (no door in between), for tests about what
// is read of them — KPI data, KPI previews, complex queries.
import { entities, entityTypes } from '../../server/db/schema.ts';
import type { TestApp } from '../api/harness.ts';

/** A new entity type of the tenant and `count` entities of it, their ids ascending. */
export async function makeEntities(t: TestApp, tenantId: string, typeName: string, count: number) {
  return t.db.systemTx(async (tx) => {
    const [type] = await tx.insert(entityTypes).values({ tenantId, category: 'test', name: typeName }).returning({ id: entityTypes.id });
    const rows = await tx.insert(entities).values(Array.from({ length: count }, (_v, i) => ({ tenantId, entityTypeId: type.id, name: { en: `${typeName} ${i + 1}` } })))
      .returning({ id: entities.id });
    return { typeId: type.id, ids: rows.map((row) => row.id).sort((a, b) => a - b) };
  });
}
