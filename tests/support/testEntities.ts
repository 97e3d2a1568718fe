// Test helper: entities made straight in the database (no door in between), for tests about what
// is read of them — KPI data, KPI previews, complex queries, lists and engines over many entities.
import { sql } from 'drizzle-orm';
import { rows } from '../../server/db/rows.ts';
import { entityTypes } from '../../server/db/schema.ts';
import type { TestApp } from '../api/harness.ts';

export interface MadeEntitiesOptions {
  /** Their parent (they are given tree paths under it); none by default. */
  parent?: { id: number; tree_path: string };
  attributes?: Record<string, unknown>;
}

/** A new entity type of the tenant and `count` entities of it (one statement however many), their ids ascending. */
export async function makeEntities(t: TestApp, tenantId: string, typeName: string, count: number, { parent, attributes = {} }: MadeEntitiesOptions = {}) {
  return t.db.systemTx(async (tx) => {
    const [type] = await tx.insert(entityTypes).values({ tenantId, category: 'test', name: typeName }).returning({ id: entityTypes.id });
    const made = await rows<{ id: number }>(tx, sql`INSERT INTO entities (tenant_id, entity_type_id, parent_id, name, attributes)
      SELECT ${tenantId}, ${type.id}, ${parent?.id ?? null}::int, jsonb_build_object('en', ${typeName} || ' ' || g), ${JSON.stringify(attributes)}::jsonb
      FROM generate_series(1, ${count}) g ORDER BY g RETURNING id`);
    const ids = made.map((row) => row.id).sort((a, b) => a - b);
    if (parent) await tx.execute(sql`UPDATE entities SET tree_path = ${parent.tree_path} || '.' || id WHERE entity_type_id = ${type.id}`);
    return { typeId: type.id, ids };
  });
}
