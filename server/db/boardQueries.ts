// Statements of boards' rules (server/resources/rules/boardRules.ts, shareRules.ts): the board a
// share names, and what a deleted board leaves behind.
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from './database.ts';
import { boards, shares } from './schema.ts';

/** The ids of the tenant's boards whose resource_uuid is `resource` (one, or none). */
export async function boardIdsByResource(tx: Tx, tenantId: string, resource: string): Promise<number[]> {
  const rows = await tx.select({ id: boards.id }).from(boards).where(and(eq(boards.tenantId, tenantId), eq(boards.resourceUuid, resource)));
  return rows.map((row) => row.id);
}

/**
 * Removes what a deleted board leaves: its shares (they name it by its resource_uuid, without a
 * foreign key) and the tenant's components it left on no board (a component exists on its boards).
 */
export async function dropBoardLeftovers(tx: Tx, tenantId: string, resource: string): Promise<void> {
  await tx.delete(shares).where(and(eq(shares.tenantId, tenantId), eq(shares.resource, resource)));
  await tx.execute(sql`DELETE FROM components c WHERE c.tenant_id = ${tenantId} AND NOT EXISTS (SELECT 1 FROM board_components bc WHERE bc.component_id = c.id)`);
}
