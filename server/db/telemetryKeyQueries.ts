// The distinct telemetry keys of some entities (row-level security: the transaction's tenant).
import { sql } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { intList, rows } from './rows.ts';

export interface TelemetryKeyFilter { ids?: number[]; types?: number[]; limit: number }

export async function telemetryKeys(tx: Tx, { ids, types, limit }: TelemetryKeyFilter): Promise<string[]> {
  const chosen = ids || types
    ? sql`WHERE ${ids ? sql`l.entity_id IN (${intList(ids)})` : sql`false`}
          OR ${types ? sql`e.entity_type_id IN (${intList(types)})` : sql`false`}`
    : sql``;
  const found = await rows<{ key: string }>(tx, sql`
    SELECT DISTINCT l.key FROM telemetry_latest l JOIN entities e ON e.id = l.entity_id ${chosen}
    ORDER BY l.key LIMIT ${limit}`);
  return found.map((row) => row.key);
}
